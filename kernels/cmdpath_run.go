package kernels

import (
	"context"
	"runtime"
	"strings"
	"time"

	"github.com/perfgate/perfgate/kernels/measure"
	"github.com/perfgate/perfgate/tracker/model"
)

// CountModes returns how many of the benchmarks of the named suites that o
// selects run on the host alone (mode=host) and how many need the GPU.
func CountModes(names []string, o Options) (host, gpu int) {
	for _, name := range names {
		def, ok := findSuite(name)
		if !ok {
			continue
		}
		for _, sel := range selectCases(def, o) {
			if sel.mode == ModeHost {
				host++
			} else {
				gpu++
			}
		}
	}
	return host, gpu
}

// RunHost runs the mode=host benchmarks of suite name that o selects. They
// need no GPU and run in every build; a suite without any returns none.
func RunHost(ctx context.Context, name string, o Options) ([]model.Benchmark, error) {
	def, ok := findSuite(name)
	if !ok {
		return nil, &UnknownSuiteError{Name: name}
	}
	if err := ValidateOptions(o); err != nil {
		return nil, err
	}
	var out []model.Benchmark
	for _, sel := range selectCases(def, o) {
		if sel.mode != ModeHost {
			continue
		}
		if err := ctx.Err(); err != nil {
			return out, err
		}
		b := measureHost(ctx, sel.c, o)
		if o.Progress != nil {
			o.Progress(progressLine(b))
		}
		out = append(out, b)
	}
	finishCmdpath(out)
	return out, ctx.Err()
}

// hostSampleTarget is how long one sample of a host benchmark lasts at least.
const hostSampleTarget = time.Millisecond

// measureHost measures the host benchmark of case c.
func measureHost(ctx context.Context, c benchCase, o Options) model.Benchmark {
	hb, err := hostBenchFor(c)
	if err != nil {
		return errorBenchmark(c, ModeHost, err)
	}
	return sampleBench(ctx, c, ModeHost, hb, o)
}

// sampleBench warms hb up, picks how many ops one sample runs so that it
// lasts hostSampleTarget, and samples it by the rules of o (the same stop
// rule as GPU benchmarks, with wall time as the measured time). It runs hb
// on the calling goroutine: the GPU's, for mode=gpu.
func sampleBench(ctx context.Context, c benchCase, mode string, hb hostBench, o Options) model.Benchmark {
	rule := rulesFor(o)
	warm := 20 * time.Millisecond
	if o.Fast {
		warm = 5 * time.Millisecond
	}
	runtime.GC()
	t0 := time.Now()
	run, stop := hb.start()
	defer stop()
	failed := func() error {
		if hb.failed != nil {
			return hb.failed()
		}
		return nil
	}
	n := 1
	for w0 := time.Now(); time.Since(w0) < warm && failed() == nil; {
		d := run(n)
		n = measure.BatchSize(max(d/time.Duration(n), 1), hostSampleTarget, 1<<24)
	}
	s := measure.Sampler{Rule: rule}
	var why string
	for start := time.Now(); failed() == nil; {
		d := run(n)
		s.Add(measure.RoundSample(float64(d.Nanoseconds())/1e3/float64(n)), d)
		var done bool
		if done, why = s.Done(time.Since(start)); done || ctx.Err() != nil {
			break
		}
	}
	if err := failed(); err != nil {
		return errorBenchmark(c, mode, err)
	}
	m := measure.Measurement{Mode: mode, Samples: s.Samples, Clocks: make([]float64, len(s.Samples)),
		Stop: measure.StopDetail(why, s.CV(), rule), BatchN: n, Warmup: warm}
	b := toBenchmark(c, m, workMeta{Bytes: hb.bytes, Info: map[string]string{"op": hb.op,
		"timing": "host wall clock: ops per sample in batch_n, sample = µs per op"}})
	b.Info["took"] = time.Since(t0).Round(time.Millisecond).String()
	if hb.cmds > 0 && b.Metrics["median_us"] > 0 {
		b.Metrics["commands_per_s"] = hb.cmds / (b.Metrics["median_us"] * 1e-6)
	}
	return b
}

// cmdpathRatios relate pairs of cmdpath variants: the metric is set on the
// benchmark with from in its name, as the median of the one with to over its own.
var cmdpathRatios = []struct{ from, to, metric string }{
	{"queue=chan", "queue=mutex", "mutex_over_chan"},
	{"via=reply_chan", "via=polling", "polling_over_reply_chan"},
	{"copy=zero", "copy=deep", "deep_over_zero"},
	{"impl=pool", "impl=make", "make_over_pool"},
	{"via=direct", "via=chan", "chan_over_direct"},
	{"impl=cuMemAllocAsync", "impl=cuMemAlloc", "sync_over_async"},
	{"host=pinned", "host=pageable", "pageable_over_pinned"},
	{"host=mapped", "host=pageable", "pageable_over_mapped"},
}

// finishCmdpath adds the ratio metrics of cmdpathRatios to bs.
func finishCmdpath(bs []model.Benchmark) {
	for _, r := range cmdpathRatios {
		addSpeedups(bs, func(b *model.Benchmark) string {
			if !strings.Contains(b.Name, "/"+r.from+"/") {
				return ""
			}
			return strings.Replace(b.Name, "/"+r.from+"/", "/"+r.to+"/", 1)
		}, r.metric)
	}
}

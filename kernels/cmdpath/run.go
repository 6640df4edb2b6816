package cmdpath

import (
	"context"
	"runtime"
	"strings"
	"time"

	"github.com/perfgate/perfgate/kernels/measure"
	"github.com/perfgate/perfgate/kernels/suite"
	"github.com/perfgate/perfgate/tracker/model"
)

// RunHost runs the mode=host benchmarks among the selected cases of cmdpath:
// they need no GPU and run in every build.
func RunHost(ctx context.Context, sel []suite.Selected, o suite.Options) ([]model.Benchmark, error) {
	var out []model.Benchmark
	for _, sel := range sel {
		if sel.Mode != OnHost {
			continue
		}
		if err := ctx.Err(); err != nil {
			return out, err
		}
		b := measureHost(ctx, sel.Case, o)
		if o.Progress != nil {
			o.Progress(suite.ProgressLine(b))
		}
		out = append(out, b)
	}
	Finish(out)
	return out, ctx.Err()
}

// hostSampleTarget is how long one sample of a host benchmark lasts at least.
const hostSampleTarget = time.Millisecond

// measureHost measures the host benchmark of case c.
func measureHost(ctx context.Context, c suite.Case, o suite.Options) model.Benchmark {
	hb, err := hostBenchFor(c)
	if err != nil {
		return suite.ErrorBenchmark(c, OnHost, err)
	}
	return Sample(ctx, c, OnHost, hb, o)
}

// Sample warms hb up, picks how many ops one sample runs so that it
// lasts hostSampleTarget, and samples it by the rules of o (the same stop
// rule as GPU benchmarks, with wall time as the measured time). It runs hb
// on the calling goroutine: the GPU's, for mode=gpu.
func Sample(ctx context.Context, c suite.Case, mode string, hb Bench, o suite.Options) model.Benchmark {
	rule := suite.RulesFor(o)
	warm := 20 * time.Millisecond
	if o.Fast {
		warm = 5 * time.Millisecond
	}
	runtime.GC()
	t0 := time.Now()
	run, stop := hb.Start()
	defer stop()
	failed := func() error {
		if hb.Failed != nil {
			return hb.Failed()
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
		return suite.ErrorBenchmark(c, mode, err)
	}
	m := measure.Measurement{Mode: mode, Samples: s.Samples, Clocks: make([]float64, len(s.Samples)),
		Stop: measure.StopDetail(why, s.CV(), rule), BatchN: n, Warmup: warm}
	b := suite.ToBenchmark(c, m, suite.WorkMeta{Bytes: hb.Bytes, Info: map[string]string{"op": hb.Op,
		"timing": "host wall clock: ops per sample in batch_n, sample = µs per op"}})
	b.Info["took"] = time.Since(t0).Round(time.Millisecond).String()
	if hb.Cmds > 0 && b.Metrics["median_us"] > 0 {
		b.Metrics["commands_per_s"] = hb.Cmds / (b.Metrics["median_us"] * 1e-6)
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

// Finish adds the ratio metrics of cmdpathRatios to bs.
func Finish(bs []model.Benchmark) {
	for _, r := range cmdpathRatios {
		suite.AddSpeedups(bs, func(b *model.Benchmark) string {
			if !strings.Contains(b.Name, "/"+r.from+"/") {
				return ""
			}
			return strings.Replace(b.Name, "/"+r.from+"/", "/"+r.to+"/", 1)
		}, r.metric)
	}
}

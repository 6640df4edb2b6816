package suite

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/perfgate/perfgate/kernels/measure"
	"github.com/perfgate/perfgate/tracker/model"
)

// A WorkMeta describes the work of one launch (or op) for derived metrics.
type WorkMeta struct {
	Bytes, FLOPs float64           // per launch; 0: not reported
	CeilingGBps  float64           // the measured copy ceiling; 0: unknown
	PeakFLOPS    float64           // the dense peak FLOP/s of this dtype on this GPU; 0: unknown
	MemBytes     float64           // device memory the benchmark took (measured); 0: not measured
	PTXHash      string            // entryHash of the benchmark's kernels: their PTX and what it reaches
	Info         map[string]string // extra provenance
	// Metrics are copied into the benchmark's metrics as they are (e.g.
	// the errors its correctness check measured).
	Metrics map[string]float64
	// PerSecond names rate metrics: metric = count per op / median time
	// (e.g. queries_per_s, tokens_per_s).
	PerSecond map[string]float64
}

// ClockFloor is the fraction of the run's median SM clock under which a
// sample is dropped.
const ClockFloor = 0.9

// ToBenchmark turns a measurement into a results-v1 benchmark in µs: clock
// filtering, metrics (median, CV, GB/s, % of the copy ceiling, TFLOP/s) and
// provenance (mode, stop reason, batch size, drops, throttling, PTX hash).
func ToBenchmark(c Case, m measure.Measurement, w WorkMeta) model.Benchmark {
	b := model.Benchmark{Suite: c.Suite, Name: c.Name(m.Mode), Params: c.ResultParams(m.Mode),
		Unit: "us", Better: model.Lower, Metrics: map[string]float64{}, Info: map[string]string{}}
	kept, dropped, clk := measure.ClockFilter(m.Samples, m.Clocks, ClockFloor)
	b.Samples = kept
	b.Info["mode"] = m.Mode
	if m.Timing != "" {
		b.Info["timing"] = m.Timing
	}
	b.Info["stop"] = m.Stop
	b.Info["batch_n"] = strconv.Itoa(m.BatchN)
	b.Info["warmup"] = m.Warmup.Round(time.Millisecond).String()
	if w.PTXHash != "" {
		b.Info["ptx_sha256"] = w.PTXHash
	}
	if ref := c.RefName(m.Mode); ref != "" {
		b.Info[InfoReference] = c.Suite + "/" + ref
	}
	for k, v := range w.Info {
		b.Info[k] = v
	}
	for k, v := range w.Metrics {
		b.Metrics[k] = v
	}
	if len(m.Throttle) > 0 {
		b.Info["clock_event_reasons"] = strings.Join(m.Throttle, ",")
	}
	m.Pace.Record(b.Metrics, b.Info, m.Pacing)
	b.Metrics["samples_taken"] = float64(len(m.Samples))
	b.Metrics["clock_drops"] = float64(dropped)
	if m.BlockTimeouts > 0 {
		b.Metrics["block_timeouts"] = float64(m.BlockTimeouts)
	}
	if m.AsIssued > 0 {
		b.Metrics["as_issued_us"] = measure.RoundSample(m.AsIssued)
	}
	if clk > 0 {
		b.Metrics["sm_clock_mhz"] = clk
	}
	if measure.ManyDrops(dropped, len(m.Samples)) {
		b.Info["clock_flag"] = fmt.Sprintf("%d of %d samples taken below %.0f%% of the median SM clock (%.0f MHz) were dropped",
			dropped, len(m.Samples), ClockFloor*100, clk)
	}
	if len(kept) == 0 {
		b.Error = "no samples left after dropping those taken at low SM clocks"
		return b
	}
	addDerived(&b, kept, w)
	return b
}

// addDerived adds median, CV and throughput metrics from the kept samples.
func addDerived(b *model.Benchmark, kept []float64, w WorkMeta) {
	med := measure.Median(kept)
	addSummary(b.Metrics, kept)
	if cv := measure.RelStd(kept); !math.IsNaN(cv) {
		b.Metrics["cv"] = cv
	}
	for k, per := range w.PerSecond {
		if med > 0 {
			b.Metrics[k] = per / (med * 1e-6)
		}
	}
	if w.Bytes > 0 && med > 0 {
		gbps := w.Bytes / (med * 1e-6) / 1e9
		b.Metrics["gbps"] = gbps
		if w.CeilingGBps > 0 {
			b.Metrics["pct_of_copy"] = 100 * gbps / w.CeilingGBps
		}
	}
	if w.FLOPs > 0 && med > 0 {
		b.Metrics["tflops"] = w.FLOPs / (med * 1e-6) / 1e12
		if w.PeakFLOPS > 0 {
			b.Metrics["pct_of_peak"] = 100 * w.FLOPs / (med * 1e-6) / w.PeakFLOPS
		}
	}
	if w.MemBytes > 0 {
		b.Metrics["peak_mem_mb"] = w.MemBytes / (1 << 20)
	}
	if med > 0 {
		b.Metrics["ops_per_s"] = 1e6 / med
	}
}

// ErrorBenchmark is a benchmark that produced no timing, with the reason.
func ErrorBenchmark(c Case, mode string, err error) model.Benchmark {
	return model.Benchmark{Suite: c.Suite, Name: c.Name(mode), Params: c.ResultParams(mode),
		Unit: "us", Better: model.Lower, Samples: []float64{}, Error: err.Error()}
}

// ProgressLine is the one-line summary of a finished benchmark.
func ProgressLine(b model.Benchmark) string {
	key := b.Suite + "/" + b.Name
	if b.Error != "" {
		return fmt.Sprintf("%-60s ERROR %s", key, b.Error)
	}
	s := fmt.Sprintf("%-60s %10.3f us  cv %5.2f%%  n=%-6d", key, b.Metrics["median_us"], 100*b.Metrics["cv"], len(b.Samples))
	if g, ok := b.Metrics["gbps"]; ok {
		s += fmt.Sprintf("  %7.1f GB/s", g)
	}
	if p, ok := b.Metrics["pct_of_copy"]; ok {
		s += fmt.Sprintf(" (%5.1f%% of copy)", p)
	}
	return s + fmt.Sprintf("  [%s; %s]", b.Info["stop"], b.Info["took"])
}

// AddSpeedups sets, on every benchmark of group, the metric name to the
// median time of the benchmark named base (same mode) over its own.
func AddSpeedups(bs []model.Benchmark, base func(*model.Benchmark) string, metric string) {
	med := map[string]float64{}
	for i := range bs {
		if bs[i].Error == "" {
			med[bs[i].Suite+"/"+bs[i].Name] = bs[i].Metrics["median_us"]
		}
	}
	for i := range bs {
		b := &bs[i]
		ref, ok := med[b.Suite+"/"+base(b)]
		if b.Error != "" || !ok || b.Metrics["median_us"] <= 0 {
			continue
		}
		b.Metrics[metric] = ref / b.Metrics["median_us"]
	}
}

// InfoReference is the info key naming a benchmark's in-run reference
// ("suite/name" of the same run); its metric is SpeedupMetric(reference's op).
const InfoReference = "reference"

// SpeedupMetric is the metric that holds the speedup over a reference whose
// name starts with op: speedup_vs_<op>.
func SpeedupMetric(op string) string { return "speedup_vs_" + op }

// AddRefSpeedups sets speedup_vs_<op> on every benchmark that names a
// reference (info.reference) present in bs without error. Built-in suites
// get it from RunSuite; a caller that runs user kernels separately calls it
// on all of a suite's benchmarks.
func AddRefSpeedups(bs []model.Benchmark) {
	med := map[string]float64{}
	for _, b := range bs {
		if b.Error == "" && b.Metrics["median_us"] > 0 {
			med[b.Suite+"/"+b.Name] = b.Metrics["median_us"]
		}
	}
	for i := range bs {
		b := &bs[i]
		ref := b.Info[InfoReference]
		r, ok := med[ref]
		if ref == "" || !ok || b.Error != "" || b.Metrics["median_us"] <= 0 {
			continue
		}
		_, name, _ := strings.Cut(ref, "/")
		op, _, _ := strings.Cut(name, "/")
		b.Metrics[SpeedupMetric(op)] = r / b.Metrics["median_us"]
	}
}

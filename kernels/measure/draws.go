package measure

import (
	"cmp"
	"math"
	"strconv"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

// Draws: some of a benchmark's number is fixed per CUDA context, not per
// sample. A cold launch of a few microseconds and a sequence timed as stream
// launches sit, for the whole life of a context, at one of several levels
// 2–4% apart (docs/gpu.md, "Between processes": every sample, buffer
// placement, stream, module copy and flush buffer of a process shares its
// level; only a new context draws a new one). Averaging over processes
// would take rounds; so such a benchmark is measured in ContextDraws
// contexts of one process, a share of its samples in each: the first in the
// session's context, the others in contexts made for the purpose, one at a
// time (each costs about 45 MiB of host memory while it lives), and its
// samples are pooled.

// ContextDraws is how many contexts a draw-sensitive benchmark is measured
// in: four halve the spread of its level between processes, for about 3 s of
// context set-up in a default PR run.
const ContextDraws = 4

// drawBelow is the warm time of an op below which its cold launch is
// draw-sensitive: such a cold launch is mostly launch and memory latency,
// whose level the context fixes; above it the kernel's own work dominates.
// On an H100 the 4K-element kernels take 1.1 µs warm and 3.7–4.5 µs cold,
// the 16M ones 50–70 µs either way.
const drawBelow = 5 * time.Microsecond

// DrawsFor returns how many contexts a benchmark measured in timing is
// spread over, given how it is timed (stream: as stream launches) and the
// warm GPU time of one op (the measuring loop's estimate before sampling).
// Fast runs are not spread.
func DrawsFor(fast bool, timing string, stream bool, perOp time.Duration) int {
	if fast {
		return 1
	}
	if stream || (timing == Cold && perOp < drawBelow) {
		return ContextDraws
	}
	return 1
}

// PerDraw returns the stop rule of one of k draws: the sample, time and
// warm-up budgets of r shared out, so that the benchmark costs about what it
// cost in one context, with at least 3 samples a draw. (The warm-up still
// lasts while the SM clock rises; the draws after the first find the GPU
// warm.)
func (r Rule) PerDraw(k int) Rule {
	if k <= 1 {
		return r
	}
	d := r
	d.MinSamples = max(3, ceilDiv(r.MinSamples, k))
	d.MaxSamples = max(d.MinSamples, ceilDiv(r.MaxSamples, k))
	d.MinGPU = r.MinGPU / time.Duration(k)
	d.MaxTime = r.MaxTime / time.Duration(k)
	d.StableWindow = max(3, ceilDiv(r.StableWindow, k))
	d.MinWarmup = cmp.Or(r.MinWarmup, minWarmup) / time.Duration(k)
	return d
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// A Drawn pools the measurements of one benchmark's draws.
type Drawn struct {
	m       Measurement
	medians []float64 // each draw's median sample (µs)
	stops   []string
}

// Add pools one draw's measurement into d.
func (d *Drawn) Add(m Measurement) {
	if len(d.medians) == 0 {
		d.m = m
		d.m.Samples = append([]float64(nil), m.Samples...)
		d.m.Clocks = append([]float64(nil), m.Clocks...)
		d.m.Throttle = append([]string(nil), m.Throttle...)
	} else {
		d.m.Samples = append(d.m.Samples, m.Samples...)
		d.m.Clocks = append(d.m.Clocks, m.Clocks...)
		d.m.Throttle = appendNew(d.m.Throttle, m.Throttle...)
		d.m.Warmup += m.Warmup
		d.m.BlockTimeouts += m.BlockTimeouts
	}
	d.medians = append(d.medians, Median(m.Samples))
	d.stops = append(d.stops, m.Stop)
}

// Measurement returns the pooled Measurement; its Stop names the draws.
func (d *Drawn) Measurement() Measurement {
	m := d.m
	if len(d.medians) > 1 {
		m.Stop = strconv.Itoa(len(d.medians)) + " contexts, each " + d.stops[len(d.stops)-1]
	}
	return m
}

// spreadPct is the standard deviation of the draws' log medians in percent:
// how far apart the contexts' levels were (NaN with fewer than 2 draws).
func (d *Drawn) spreadPct() float64 {
	if len(d.medians) < 2 {
		return math.NaN()
	}
	logs := make([]float64, 0, len(d.medians))
	for _, v := range d.medians {
		if v <= 0 || math.IsNaN(v) {
			return math.NaN()
		}
		logs = append(logs, math.Log(v))
	}
	sd, _ := stdDev(logs)
	return 100 * sd
}

// Record writes the draws into a benchmark's metrics: how many contexts it
// was measured in and how far apart their medians were.
func (d *Drawn) Record(metrics map[string]float64) {
	metrics[model.MetricDraws] = float64(max(len(d.medians), 1))
	if s := d.spreadPct(); !math.IsNaN(s) {
		metrics[model.MetricDrawSpread] = math.Round(s*1000) / 1000
	}
}

func appendNew(to []string, xs ...string) []string {
	for _, x := range xs {
		seen := false
		for _, y := range to {
			seen = seen || x == y
		}
		if !seen {
			to = append(to, x)
		}
	}
	return to
}

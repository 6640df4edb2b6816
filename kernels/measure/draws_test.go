package measure

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

func TestDrawsFor(t *testing.T) {
	for _, tc := range []struct {
		name   string
		fast   bool
		mode   string
		stream bool
		perOp  time.Duration
		want   int
	}{
		{"cold 4K add (1.1 µs warm)", false, Cold, false, 1100 * time.Nanosecond, ContextDraws},
		{"cold just under", false, Cold, false, drawBelow - time.Nanosecond, ContextDraws},
		{"cold at the limit", false, Cold, false, drawBelow, 1},
		{"cold 16M add (68 µs)", false, Cold, false, 68 * time.Microsecond, 1},
		{"batch 4K add: graph replays", false, Batch, false, 1100 * time.Nanosecond, 1},
		{"stream launches, batch", false, Batch, true, 3 * time.Microsecond, ContextDraws},
		{"stream launches, slow op", false, Cold, true, time.Millisecond, ContextDraws},
		{"fast runs are one draw", true, Cold, true, time.Microsecond, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := DrawsFor(tc.fast, tc.mode, tc.stream, tc.perOp); got != tc.want {
				t.Errorf("DrawsFor = %d, want %d", got, tc.want)
			}
		})
	}
}

func TestPerDraw(t *testing.T) {
	ci := RuleFor(Budget{CI: true}) // 10..40 samples, 100 ms of GPU, 5 s
	d := ci.PerDraw(4)
	if d.MinSamples != 3 || d.MaxSamples != 10 || d.MinGPU != 25*time.Millisecond || d.MaxTime != 1250*time.Millisecond || d.StableWindow != 5 || d.MinWarmup != minWarmup/4 {
		t.Errorf("ci.PerDraw(4) = %+v", d)
	}
	if d.TargetCV != ci.TargetCV || d.StableSpread != ci.StableSpread || d.Pace != ci.Pace {
		t.Errorf("PerDraw changed what it must not: %+v", d)
	}
	full := RuleFor(Budget{}) // 10..2000 samples
	if d := full.PerDraw(4); d.MinSamples != 3 || d.MaxSamples != 500 {
		t.Errorf("full.PerDraw(4) = %d..%d samples, want 3..500", d.MinSamples, d.MaxSamples)
	}
	if d := ci.PerDraw(1); d != ci {
		t.Errorf("PerDraw(1) changed the rule: %+v", d)
	}
}

// TestLoopTakesADrawsShare: a loop told that a benchmark is spread over 4
// contexts samples one draw's share; the same loop without draws samples the
// whole rule.
func TestLoopTakesADrawsShare(t *testing.T) {
	jitter := []float64{1, 1.05, 0.95, 1.1, 0.9} // CV ≈ 7%: stops on the sample cap
	run := func(draws func(time.Duration) int) Measurement {
		f := &fakeGPU{per: 1100 * time.Nanosecond, jitter: jitter}
		l := f.loop()
		l.Draws = draws
		m, err := l.Measure(context.Background(), Cold, 1, 512, false, ciRule)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	var saw time.Duration
	one := run(nil)
	four := run(func(perOp time.Duration) int {
		saw = perOp
		return DrawsFor(false, Cold, false, perOp)
	})
	if one.Draws != 1 || len(one.Samples) != CIMaxSamples {
		t.Errorf("without draws: %d draws, %d samples; want 1, %d", one.Draws, len(one.Samples), CIMaxSamples)
	}
	if four.Draws != ContextDraws || len(four.Samples) != CIMaxSamples/ContextDraws {
		t.Errorf("with draws: %d draws, %d samples; want %d, %d", four.Draws, len(four.Samples), ContextDraws, CIMaxSamples/ContextDraws)
	}
	if saw < time.Microsecond || saw > 1200*time.Nanosecond {
		t.Errorf("draws was asked with %v per op, want the warm 1.1 µs", saw)
	}
}

func TestDrawnPools(t *testing.T) {
	var d Drawn
	d.Add(Measurement{Mode: Cold, Samples: []float64{4.0, 4.1, 3.9}, Clocks: []float64{1980, 1980, 1980}, Stop: "max-samples 10", Throttle: []string{"sw_power"}, Timing: "graph"})
	d.Add(Measurement{Mode: Cold, Samples: []float64{4.2, 4.3}, Clocks: []float64{1980, 1975}, Stop: "max-samples 10", Throttle: []string{"sw_power", "hw_slowdown"}, BlockTimeouts: 1})
	m := d.Measurement()
	if len(m.Samples) != 5 || len(m.Clocks) != 5 || m.Timing != "graph" || m.BlockTimeouts != 1 {
		t.Errorf("pooled %+v", m)
	}
	if len(m.Throttle) != 2 {
		t.Errorf("throttle reasons %v, want each once", m.Throttle)
	}
	if m.Stop != "2 contexts, each max-samples 10" {
		t.Errorf("stop %q", m.Stop)
	}
	// Medians 4.0 and 4.25: SD of their logs, sqrt(((ln4.25-ln4)/2)^2*2) = |ln(4.25/4)|/sqrt(2)
	want := 100 * math.Abs(math.Log(4.25/4.0)) / math.Sqrt2
	if got := d.spreadPct(); math.Abs(got-want) > 1e-9 {
		t.Errorf("spreadPct = %v, want %v", got, want)
	}
	metrics := map[string]float64{}
	d.Record(metrics)
	if metrics[model.MetricDraws] != 2 || math.Abs(metrics[model.MetricDrawSpread]-math.Round(want*1000)/1000) > 1e-12 {
		t.Errorf("metrics %v", metrics)
	}
	var one Drawn
	one.Add(Measurement{Samples: []float64{1}, Stop: "rel-std"})
	metrics = map[string]float64{}
	one.Record(metrics)
	if _, ok := metrics[model.MetricDrawSpread]; ok || metrics[model.MetricDraws] != 1 || one.Measurement().Stop != "rel-std" {
		t.Errorf("one draw: metrics %v, stop %q", metrics, one.Measurement().Stop)
	}
}

// TestWarmupShare: a draw's rule shortens the warm-up's minimum, not its
// wait for the clock.
func TestWarmupShare(t *testing.T) {
	warm := func(r Rule, clocks []float64) time.Duration {
		f := &fakeGPU{per: 2 * time.Microsecond, clocks: clocks}
		m, err := f.loop().Measure(context.Background(), Cold, 1, 512, false, r)
		if err != nil {
			t.Fatal(err)
		}
		return m.Warmup
	}
	full, share := warm(ciRule, nil), warm(ciRule.PerDraw(4), nil)
	if full < minWarmup || share < minWarmup/4 || share >= minWarmup/2 {
		t.Errorf("warm-up %v with the whole rule, %v with a quarter; want ≥ %v and about %v", full, share, minWarmup, minWarmup/4)
	}
	rising := make([]float64, 40) // the clock rises for 40 reads
	for i := range rising {
		rising[i] = 1000 + 20*float64(i)
	}
	if w := warm(ciRule.PerDraw(4), rising); w < 5*minWarmup/4 {
		t.Errorf("warm-up %v while the clock rose: it must go on", w)
	}
}

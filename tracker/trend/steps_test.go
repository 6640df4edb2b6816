package trend

import (
	"crypto/sha1"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

// series builds a lower-is-better series from medians, one run an hour.
func series(better model.Better, medians ...float64) model.TrendSeries {
	se := model.TrendSeries{Suite: "elementwise", Name: "add/fp32/n=16777216", Unit: "ns", Better: better}
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for i, m := range medians {
		se.Points = append(se.Points, model.TrendPoint{
			Run:    model.RunRef{ID: fmt.Sprintf("run-%02d", i), Commit: fmt.Sprintf("%x", sha1.Sum([]byte{byte(i)})), Branch: "main", Testbed: "gpu-h100-1", StartedAt: at.Add(time.Duration(i) * time.Hour)},
			Median: m, CV: 0.01, N: 30,
		})
	}
	return se
}

// noisy is a flat level 100 with ±1% wobble.
var noisy = []float64{100, 101, 99, 100.5, 99.5, 100.2, 99.8, 100.7, 99.3, 100.1}

func shift(x []float64, by float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = v * by
	}
	return out
}

// drift is n medians starting at 100, each rate times the one before.
func drift(n int, rate float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = 100 * math.Pow(rate, float64(i))
	}
	return out
}

func cat(xs ...[]float64) []float64 {
	var out []float64
	for _, x := range xs {
		out = append(out, x...)
	}
	return out
}

func TestSteps(t *testing.T) {
	type want struct {
		index  int
		change float64 // approximate, to 1e-3
		kind   string
	}
	cases := []struct {
		name   string
		better model.Better
		points []float64
		want   []want
	}{
		{"flat", model.Lower, cat(noisy, noisy), nil},
		// Medians of the segments: before 100.1 (noisy), after 120.12.
		{"one regression", model.Lower, cat(noisy, shift(noisy, 1.2)), []want{{10, 1.2*100.1/100.1 - 1, "regression"}}},
		{"one improvement", model.Lower, cat(noisy, shift(noisy, 0.8)), []want{{10, -0.2, "improvement"}}},
		// Throughput falling 20% is worse: change = before/after − 1.
		{"higher is better", model.Higher, cat(noisy, shift(noisy, 0.8)), []want{{10, 1/0.8 - 1, "regression"}}},
		{"below threshold", model.Lower, cat(noisy, shift(noisy, 1.03)), nil},
		{"single outlier", model.Lower, cat(noisy, []float64{300}, noisy), nil},
		{"two steps", model.Lower, cat(noisy, shift(noisy, 1.3), noisy), []want{
			{10, 0.3, "regression"}, {20, 1/1.3 - 1, "improvement"}}},
		// Steps the old window rule missed: within the first runs.
		{"step at run 1", model.Lower, cat(noisy[:1], shift(noisy, 1.15)), []want{{1, 0.15, "regression"}}},
		{"step at run 3", model.Lower, cat(noisy[:3], shift(noisy, 1.15)), []want{{3, 0.15, "regression"}}},
		// The twelve runs with a step at run 7, which the window
		// rule placed at run 8.
		{"twelve runs, step at 7", model.Lower, cat(noisy[:7], shift(noisy[:5], 1.12)), []want{{7, 0.12, "regression"}}},
		{"slow drift", model.Lower, drift(20, 1.002), nil},
		// Noise as large as the shift is no step.
		{"noisy shift", model.Lower, []float64{100, 130, 95, 125, 100, 128, 99, 131, 102, 127, 125, 100, 130, 98, 129, 101, 126, 99, 130, 97}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Steps(series(c.better, c.points...), DefaultOptions())
			if len(got) != len(c.want) {
				t.Fatalf("Steps = %+v, want %d step(s)", got, len(c.want))
			}
			for i, w := range c.want {
				g := got[i]
				if g.Index != w.index || g.Kind != w.kind || math.Abs(g.Change-w.change) > 0.01 {
					t.Errorf("step %d = index %d %s %+.4f, want index %d %s %+.4f", i, g.Index, g.Kind, g.Change, w.index, w.kind, w.change)
				}
				if g.Run.ID != fmt.Sprintf("run-%02d", w.index) {
					t.Errorf("step %d run = %s, want run-%02d", i, g.Run.ID, w.index)
				}
			}
		})
	}
}

// TestStepsLatestPoints checks that only the latest MaxPoints are read and
// that indexes still count from the first point.
func TestStepsLatestPoints(t *testing.T) {
	pts := make([]float64, MaxPoints+50)
	for i := range pts {
		pts[i] = noisy[i%len(noisy)]
		if i < 20 || i >= MaxPoints+30 {
			pts[i] *= 1.5
		}
	}
	got := Steps(series(model.Lower, pts...), DefaultOptions())
	if len(got) != 1 || got[0].Index != MaxPoints+30 {
		t.Errorf("Steps = %+v, want one step at %d (the one at 20 is out of reach)", got, MaxPoints+30)
	}
}

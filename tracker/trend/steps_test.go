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
		{"too short", model.Lower, cat(noisy[:4], shift(noisy[:5], 1.5)), nil},
		// Medians of the windows: before 100 (noisy[5:10] → 100.1), after 120 (noisy[:5]*1.2 → 120).
		{"one regression", model.Lower, cat(noisy, shift(noisy, 1.2)), []want{{10, 120.0/100.1 - 1, "regression"}}},
		{"one improvement", model.Lower, cat(noisy, shift(noisy, 0.8)), []want{{10, 80.0/100.1 - 1, "improvement"}}},
		// Throughput falling 20% is worse: change = before/after − 1.
		{"higher is better", model.Higher, cat(noisy, shift(noisy, 0.8)), []want{{10, 100.1/80.0 - 1, "regression"}}},
		{"below threshold", model.Lower, cat(noisy, shift(noisy, 1.05)), nil},
		{"single outlier", model.Lower, cat(noisy, []float64{300}, noisy), nil},
		{"two steps", model.Lower, cat(noisy, shift(noisy, 1.3), noisy), []want{
			{10, 130.0/100.1 - 1, "regression"}, {20, 100.0/130.13 - 1, "improvement"}}},
		// A steady 1% a run: windows five runs apart differ by about 5%,
		// under the threshold, though they never overlap.
		{"slow drift", model.Lower, drift(20, 1.01), nil},
		// 3% a run is a level moving 15% every five runs: reported.
		{"fast drift", model.Lower, drift(20, 1.03), []want{
			{5, math.Pow(1.03, 5) - 1, "regression"}, {10, math.Pow(1.03, 5) - 1, "regression"}, {15, math.Pow(1.03, 5) - 1, "regression"}}},
		// Overlapping windows (noise as large as the shift) are no step.
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
				if g.Index != w.index || g.Kind != w.kind || math.Abs(g.Change-w.change) > 1e-3 {
					t.Errorf("step %d = index %d %s %+.4f, want index %d %s %+.4f", i, g.Index, g.Kind, g.Change, w.index, w.kind, w.change)
				}
				if g.Run.ID != fmt.Sprintf("run-%02d", w.index) {
					t.Errorf("step %d run = %s, want run-%02d", i, g.Run.ID, w.index)
				}
			}
		})
	}
}

func TestStepsWindowOption(t *testing.T) {
	pts := cat(noisy[:3], shift(noisy[:3], 1.5))
	if got := Steps(series(model.Lower, pts...), DefaultOptions()); len(got) != 0 {
		t.Errorf("window 5 on 6 points: %+v, want none", got)
	}
	got := Steps(series(model.Lower, pts...), Options{Window: 3, Threshold: 0.1})
	if len(got) != 1 || got[0].Index != 3 {
		t.Errorf("window 3: %+v, want one step at 3", got)
	}
}

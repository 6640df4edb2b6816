package trend

import (
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

func TestNewSteps(t *testing.T) {
	old := series(model.Lower, cat(noisy, shift(noisy, 1.3))...)       // a step at 10, long known
	fresh := series(model.Lower, cat(noisy, noisy, []float64{150})...) // the latest run jumps 50%
	fresh.Name = "fresh"
	quiet := series(model.Lower, cat(noisy, noisy)...)
	quiet.Name = "quiet"
	latest := map[string]bool{"run-19": true, "run-20": true}
	got := NewSteps([]model.TrendSeries{old, fresh, quiet}, latest, DefaultOptions())
	if len(got) != 1 || got[0].Name != "fresh" || got[0].Index != 20 || got[0].Run.ID != "run-20" || got[0].Kind != "regression" {
		t.Fatalf("NewSteps = %+v, want one regression at run-20 of fresh", got)
	}
	// Without the latest runs nothing is new.
	if got := NewSteps([]model.TrendSeries{old, fresh}, map[string]bool{"other": true}, DefaultOptions()); len(got) != 0 {
		t.Errorf("NewSteps without new runs = %+v, want none", got)
	}
	// A step made by the latest run inside a long series keeps its index.
	long := series(model.Lower, make([]float64, 0)...)
	for i := range RecentPoints + 20 {
		v := noisy[i%len(noisy)]
		if i == RecentPoints+19 {
			v *= 1.5
		}
		long.Points = append(long.Points, series(model.Lower, v).Points[0])
		long.Points[i].Run.ID = "r" + string(rune('A'+i%26)) + string(rune('a'+i/26))
	}
	last := long.Points[len(long.Points)-1].Run.ID
	got = NewSteps([]model.TrendSeries{long}, map[string]bool{last: true}, DefaultOptions())
	if len(got) != 1 || got[0].Index != RecentPoints+19 {
		t.Errorf("long series: %+v, want one step at %d", got, RecentPoints+19)
	}
}

// TestNewStepsRampOnce replays histories push by push, as the action
// does, and counts the steps announced: a ramp over a few runs is one
// change of level, announced once (issue 28, item 8: the detector first
// places it at one run, then moves it or splits it into steps two runs
// apart, and each looked new), while a second step well after the first
// is announced too.
func TestNewStepsRampOnce(t *testing.T) {
	cases := []struct {
		name   string
		values []float64
		want   int
	}{
		{"ramp 110 120 130", cat(noisy, noisy, []float64{110, 120, 130}, shift(noisy, 1.3), shift(noisy, 1.3)), 1},
		{"ramp 105 … 125", cat(noisy, noisy, []float64{105, 110, 115, 120, 125}, shift(noisy, 1.25), shift(noisy, 1.25)), 1},
		{"ramp 103 … 118", cat(noisy, noisy, []float64{103, 106, 109, 112, 115, 118}, shift(noisy, 1.18), shift(noisy, 1.18)), 1},
		{"two steps", cat(noisy, noisy, shift(noisy, 1.2), shift(noisy, 1.2), shift(noisy, 1.45), shift(noisy, 1.45)), 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			full := series(model.Lower, c.values...)
			var announced []string
			for n := 2; n <= len(full.Points); n++ {
				se := full
				se.Points = full.Points[:n]
				for _, ch := range NewSteps([]model.TrendSeries{se}, map[string]bool{se.Points[n-1].Run.ID: true}, DefaultOptions()) {
					announced = append(announced, ch.Run.ID)
				}
			}
			if len(announced) != c.want {
				t.Errorf("announced at %v, want %d announcement(s)", announced, c.want)
			}
		})
	}
}

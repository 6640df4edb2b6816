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

package trend

import (
	"math"
	"slices"

	"github.com/perfgate/perfgate/tracker/model"
)

// Options tune step detection.
type Options struct {
	// Window is how many runs on each side of a candidate step are
	// compared. Five per side makes complete separation a two-sided exact
	// Mann-Whitney p of 2/C(10,5) = 0.0079.
	Window int
	// Threshold is the smallest change of the median that counts, as a
	// fraction (0.10 = 10%), the same scale as the gate's threshold.
	Threshold float64
}

// DefaultOptions are five runs per side and 10%.
func DefaultOptions() Options { return Options{Window: 5, Threshold: 0.10} }

// A Step is a lasting change of a benchmark's level.
type Step struct {
	Index  int          `json:"index"` // the first point after the step
	Run    model.RunRef `json:"run"`   // that point's run: where to look
	Before float64      `json:"before"`
	After  float64      `json:"after"`
	// Change is After/Before − 1 signed so that positive always means
	// worse (slower for lower-is-better, less for higher-is-better).
	Change float64 `json:"change"`
	Kind   string  `json:"kind"` // "regression" or "improvement"
}

// Steps finds the step changes of a series with this rule: a step starts
// at point i when, with w = o.Window, the w medians before i and the w
// medians from i on do not overlap at all (every one on one side is above
// every one on the other) and their medians differ by at least
// o.Threshold. Of adjacent qualifying points the one with the largest
// change is kept, and the next step is looked for w points later, so one
// shift is reported once. Series shorter than 2w have no steps. The rule is
// deliberately blunt: one outlier cannot make a step (the windows would
// overlap), and a steady drift is one only when it moves the level by the
// threshold within w runs (about 2% a run by default; a faster drift is
// reported as a step every w runs).
func Steps(se model.TrendSeries, o Options) []Step {
	w, pts := o.Window, se.Points
	if w < 1 || len(pts) < 2*w {
		return nil
	}
	var steps []Step
	for i := w; i+w <= len(pts); {
		best, ok := stepAt(se, i, o)
		if !ok {
			i++
			continue
		}
		for j := i + 1; j+w <= len(pts); j++ {
			s, ok := stepAt(se, j, o)
			if !ok {
				break
			}
			if math.Abs(s.Change) > math.Abs(best.Change) {
				best = s
			}
		}
		steps = append(steps, best)
		i = best.Index + w
	}
	return steps
}

// stepAt tests for a step starting at point i.
func stepAt(se model.TrendSeries, i int, o Options) (Step, bool) {
	before, after := medians(se.Points[i-o.Window:i]), medians(se.Points[i:i+o.Window])
	if !(slices.Max(before) < slices.Min(after) || slices.Min(before) > slices.Max(after)) {
		return Step{}, false
	}
	b, a := median(before), median(after)
	if b == 0 {
		return Step{}, false
	}
	change := a/b - 1
	if se.Better == model.Higher {
		change = b/a - 1
	}
	if math.Abs(change) < o.Threshold || math.IsNaN(change) || math.IsInf(change, 0) {
		return Step{}, false
	}
	kind := "regression"
	if change < 0 {
		kind = "improvement"
	}
	return Step{Index: i, Run: se.Points[i].Run, Before: b, After: a, Change: change, Kind: kind}, true
}

func medians(pts []model.TrendPoint) []float64 {
	out := make([]float64, len(pts))
	for i, p := range pts {
		out[i] = p.Median
	}
	return out
}

// median of x (the mean of the two middle values for an even count).
func median(x []float64) float64 {
	s := slices.Sorted(slices.Values(x))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

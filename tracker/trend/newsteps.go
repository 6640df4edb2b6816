package trend

import (
	"math"
	"slices"

	"github.com/perfgate/perfgate/tracker/model"
)

// RecentPoints is how many of a series' latest points NewSteps reads: a
// step the latest run makes appear lies near the end, and detection costs
// O(n²).
const RecentPoints = 100

// NewSteps returns the steps that the runs named in latest made appear:
// in each series whose last points are those runs', the steps of its
// latest RecentPoints points that the same points without them did not
// have already (known).
func NewSteps(series []model.TrendSeries, latest map[string]bool, o Options) []Change {
	var out []Change
	for _, se := range series {
		pts := se.Points[max(0, len(se.Points)-RecentPoints):]
		cut := len(pts)
		for cut > 0 && latest[pts[cut-1].Run.ID] {
			cut--
		}
		if cut == len(pts) {
			continue // no new point in this series
		}
		old := Steps(model.TrendSeries{Suite: se.Suite, Name: se.Name, Unit: se.Unit, Better: se.Better, Points: pts[:cut]}, o)
		steps := Steps(model.TrendSeries{Suite: se.Suite, Name: se.Name, Unit: se.Unit, Better: se.Better, Points: pts}, o)
		for i, st := range steps {
			if known(old, steps, i) {
				continue
			}
			st.Index += len(se.Points) - len(pts)
			out = append(out, Change{Suite: se.Suite, Name: se.Name, Unit: se.Unit, Better: se.Better, Step: st})
		}
	}
	return out
}

// SameStepRuns is how close (in runs) a step must lie to an earlier step of
// the same kind to be taken for it (known).
const SameStepRuns = 3

// known reports whether steps[i] is a step the series had before its
// latest runs: one of old of the same kind lies between steps[i]'s
// neighbouring steps (or the ends), or within SameStepRuns runs of it.
// That is the same change of level, seen again as more runs came: a step
// that moved, or a ramp, which the detector first places at one run and,
// as the ramp goes on, moves or splits into steps a run or two apart. A
// level change well after an old step's is new.
func known(old, steps []Step, i int) bool {
	lo, hi := -1, math.MaxInt
	if i > 0 {
		lo = steps[i-1].Index
	}
	if i+1 < len(steps) {
		hi = steps[i+1].Index
	}
	at := steps[i].Index
	return slices.ContainsFunc(old, func(s Step) bool {
		return s.Kind == steps[i].Kind && (s.Index > lo && s.Index < hi || max(s.Index-at, at-s.Index) <= SameStepRuns)
	})
}

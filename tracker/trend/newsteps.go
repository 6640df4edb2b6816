package trend

import (
	"slices"

	"github.com/perfgate/perfgate/tracker/model"
)

// RecentPoints is how many of a series' latest points NewSteps reads: a
// step the latest run makes appear lies near the end, and detection costs
// O(n²).
const RecentPoints = 100

// NewSteps returns the steps that the runs named in latest made appear:
// in each series whose last points are those runs', the steps of its
// latest RecentPoints points that are not steps (by run) of the same
// points without them. A step that only moved by a run counts as new.
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
		for _, st := range Steps(model.TrendSeries{Suite: se.Suite, Name: se.Name, Unit: se.Unit, Better: se.Better, Points: pts}, o) {
			if slices.ContainsFunc(old, func(s Step) bool { return s.Run.ID == st.Run.ID }) {
				continue
			}
			st.Index += len(se.Points) - len(pts)
			out = append(out, Change{Suite: se.Suite, Name: se.Name, Unit: se.Unit, Better: se.Better, Step: st})
		}
	}
	return out
}

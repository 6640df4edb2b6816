package filestore

import (
	"cmp"
	"context"
	"slices"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// A runPoint is a trend point with the index entry of its run.
type runPoint struct {
	run *entry
	p   point
}

// A seriesKey names a trend series: one benchmark in one unit (a unit
// change starts a series, model.TrendSeries).
type seriesKey struct{ suite, name, unit string }

// series builds the sorted series of the benchmarks matching q over runs
// (the index entries q selects, by run ID): from the series files, and from
// the run files of runs whose points are not in them (every run, when
// fromRuns is set).
func (s *Store) series(ctx context.Context, runs map[string]*entry, q model.TrendQuery, fromRuns bool) ([]model.TrendSeries, error) {
	byKey := map[seriesKey][]runPoint{}
	var keys []model.Key
	if !fromRuns {
		var err error
		if keys, err = s.catalog(); err != nil {
			return nil, err
		}
	}
	inSeries := func(id string) bool { e := runs[id]; return e != nil && e.Series && !fromRuns }
	for _, k := range keys {
		if (q.Suite != "" && k.Suite != q.Suite) || !model.MatchGlob(q.Pattern, k.Name) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		points, err := s.readSeries(k, inSeries)
		if err != nil {
			return nil, err
		}
		for id, p := range points {
			sk := seriesKey{k.Suite, k.Name, p.Unit}
			byKey[sk] = append(byKey[sk], runPoint{runs[id], p})
		}
	}
	for _, e := range runs {
		if !inSeries(e.Run.ID) {
			if err := s.pointsFromRun(e, q, byKey); err != nil {
				return nil, err
			}
		}
	}
	return sortedSeries(byKey), nil
}

// pointsFromRun adds the points of one run file's matching benchmarks. A
// run file that does not load is skipped with a warning.
func (s *Store) pointsFromRun(e *entry, q model.TrendQuery, byKey map[seriesKey][]runPoint) error {
	r, err := resultsjson.Load(s.runPath(e.File))
	if model.IsInputError(err) {
		s.skipRun(damagedRun{e.File, err})
		return nil
	}
	if err != nil {
		return err
	}
	for _, b := range r.Benchmarks {
		if len(b.Samples) == 0 || (q.Suite != "" && b.Suite != q.Suite) || !model.MatchGlob(q.Pattern, b.Name) {
			continue
		}
		med, cv := model.MedianCV(b.Samples)
		sk := seriesKey{b.Suite, b.Name, b.Unit}
		byKey[sk] = append(byKey[sk], runPoint{e, point{RunID: e.Run.ID, Unit: b.Unit, Better: b.Better, N: len(b.Samples), Median: med, CV: cv}})
	}
	return nil
}

// sortedSeries orders each series' points by start time, then run ID, takes
// the direction of its newest run, and orders the series by suite, name
// and unit.
func sortedSeries(byKey map[seriesKey][]runPoint) []model.TrendSeries {
	out := make([]model.TrendSeries, 0, len(byKey))
	for k, pts := range byKey {
		slices.SortFunc(pts, func(a, b runPoint) int { return newestFirstRun(&b.run.Run, &a.run.Run) })
		se := model.TrendSeries{Suite: k.suite, Name: k.name, Unit: k.unit, Better: pts[len(pts)-1].p.Better,
			Points: make([]model.TrendPoint, len(pts))}
		for i, rp := range pts {
			se.Points[i] = model.TrendPoint{Run: rp.run.Run.Ref(), Median: rp.p.Median, CV: rp.p.CV, N: rp.p.N}
		}
		out = append(out, se)
	}
	slices.SortFunc(out, func(a, b model.TrendSeries) int {
		return cmp.Or(cmp.Compare(a.Suite, b.Suite), cmp.Compare(a.Name, b.Name), cmp.Compare(a.Unit, b.Unit))
	})
	return out
}

package filestore

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"slices"

	"github.com/perfgate/perfgate/tracker/model"
)

// newestFirst orders entries by started_at, newest first, ties by ID.
func newestFirst(a, b entry) int { return newestFirstRun(&a.Run, &b.Run) }

func newestFirstRun(a, b *model.Run) int {
	if c := b.StartedAt.Compare(a.StartedAt); c != 0 {
		return c
	}
	return cmp.Compare(b.ID, a.ID)
}

// Baseline returns every comparable run of the latest q.Runs baseline jobs
// of q.Branch (model.BaselineQuery).
func (s *Store) Baseline(ctx context.Context, q model.BaselineQuery) (*model.Baseline, error) {
	if q.Runs < 1 {
		return nil, fmt.Errorf("filestore: baseline of %d runs: need at least 1", q.Runs)
	}
	b := &model.Baseline{}
	err := s.withLock(ctx, false, func(exists bool) error {
		if !exists {
			return nil
		}
		ix, _, err := s.loadIndex()
		if err != nil {
			return err
		}
		used, passed := selectBaseline(ix.Runs, q)
		b.Incomparable = passed
		for _, e := range used {
			r, err := s.loadRun(e)
			if err != nil {
				return err
			}
			b.Runs = append(b.Runs, r)
			b.Used = append(b.Used, r.Run.Ref())
		}
		return nil
	})
	return b, err
}

// selectBaseline picks the runs of a baseline and the runs it reports as
// passed over, by the rules documented on model.BaselineQuery and
// model.Baseline: every comparable shard of the latest q.Runs jobs.
func selectBaseline(all []entry, q model.BaselineQuery) (used []entry, passed []model.Incomparable) {
	var cands []*entry // pointers: entries are large to swap while sorting
	for i := range all {
		e := &all[i]
		if (q.Repo == "" || e.Run.Repo == q.Repo) && e.Run.ID != q.Exclude && e.Run.IsBaselineCandidate(q.Branch) &&
			e.Samples > 0 { // a run none of whose benchmarks has samples failed: never a baseline
			cands = append(cands, e)
		}
	}
	slices.SortFunc(cands, func(a, b *entry) int { return newestFirstRun(&a.Run, &b.Run) })
	comparable := make([]bool, len(cands))
	jobs := map[model.JobKey]bool{} // newest first, so a job's first run is its newest shard
	for i, e := range cands {
		comparable[i], _ = model.Comparable(q.Testbed, model.FingerprintOf(&e.Run))
		if k := e.Run.JobKey(); comparable[i] && len(jobs) < q.Runs {
			jobs[k] = true
		}
	}
	oldest := len(cands) // the position of the oldest run used
	for i, e := range cands {
		if comparable[i] && jobs[e.Run.JobKey()] {
			used, oldest = append(used, *e), i
		}
	}
	for i, e := range cands {
		if len(passed) == q.Runs || (len(jobs) == q.Runs && i > oldest) {
			break
		}
		if ok, why := model.Comparable(q.Testbed, model.FingerprintOf(&e.Run)); !ok &&
			(len(used) == 0 || e.Run.Testbed == q.Testbed.Testbed) {
			passed = append(passed, model.Incomparable{Run: e.Run.Ref(), Reason: why})
		}
	}
	return used, passed
}

// loadRun reads a stored run. It decodes without validating again: the file
// was validated when it was recorded or indexed, and loadIndex has checked
// that it is unchanged since (a trend reads every run, and validation costs
// several times the decoding). A run file that vanished or changed under a
// valid index means another process broke the lock protocol.
func (s *Store) loadRun(e entry) (*model.Results, error) {
	file := s.runPath(e.File)
	data, err := os.ReadFile(file)
	if notExist(err) {
		return nil, infra("read run "+e.Run.ID, err)
	}
	if err != nil {
		return nil, &model.InputError{File: file, Msg: "cannot read results file", Err: err}
	}
	var r model.Results
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, &model.InputError{File: file, Msg: "invalid results document", Err: err}
	}
	return &r, nil
}

// Trend returns one series per benchmark and unit matching q, one point per
// run.
func (s *Store) Trend(ctx context.Context, q model.TrendQuery) ([]model.TrendSeries, error) {
	if _, err := path.Match(q.Pattern, ""); err != nil {
		return nil, &model.InputError{Msg: fmt.Sprintf("benchmark pattern %q: %v", q.Pattern, err), Err: err}
	}
	var out []model.TrendSeries
	err := s.withLock(ctx, false, func(exists bool) error {
		if !exists {
			return nil
		}
		ix, _, err := s.loadIndex()
		if err != nil {
			return err
		}
		var runs []entry
		for _, e := range ix.Runs {
			if trendMatch(&e.Run, q) {
				runs = append(runs, e)
			}
		}
		slices.SortFunc(runs, func(a, b entry) int { return newestFirst(b, a) })
		out, err = s.series(ctx, runs, q)
		return err
	})
	return out, err
}

func trendMatch(r *model.Run, q model.TrendQuery) bool {
	return (q.Repo == "" || r.Repo == q.Repo) &&
		(q.Branch == "" || r.IsBaselineCandidate(q.Branch)) &&
		(q.Testbed == "" || r.Testbed == q.Testbed) &&
		!r.StartedAt.Before(q.Since)
}

// series reads runs (oldest first) and builds the sorted series.
func (s *Store) series(ctx context.Context, runs []entry, q model.TrendQuery) ([]model.TrendSeries, error) {
	type seriesKey struct{ suite, name, unit string }
	byKey := map[seriesKey]*model.TrendSeries{}
	for _, e := range runs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r, err := s.loadRun(e)
		if err != nil {
			return nil, err
		}
		for _, b := range r.Benchmarks {
			if len(b.Samples) == 0 || (q.Suite != "" && b.Suite != q.Suite) {
				continue
			}
			if !model.MatchGlob(q.Pattern, b.Name) {
				continue
			}
			k := seriesKey{b.Suite, b.Name, b.Unit} // a unit change starts a series (model.TrendSeries)
			se := byKey[k]
			if se == nil {
				se = &model.TrendSeries{Suite: b.Suite, Name: b.Name, Unit: b.Unit}
				byKey[k] = se
			}
			se.Better = b.Better // the newest run's, as runs are oldest first
			med, cv := model.MedianCV(b.Samples)
			se.Points = append(se.Points, model.TrendPoint{Run: r.Run.Ref(), Median: med, CV: cv, N: len(b.Samples)})
		}
	}
	out := make([]model.TrendSeries, 0, len(byKey))
	for _, se := range byKey {
		out = append(out, *se)
	}
	slices.SortFunc(out, func(a, b model.TrendSeries) int {
		return cmp.Or(cmp.Compare(a.Suite, b.Suite), cmp.Compare(a.Name, b.Name), cmp.Compare(a.Unit, b.Unit))
	})
	return out, nil
}

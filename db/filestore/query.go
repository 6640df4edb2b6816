package filestore

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"slices"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// newestFirst orders entries by started_at, newest first, ties by ID.
func newestFirst(a, b entry) int { return newestFirstRun(&a.Run, &b.Run) }

func newestFirstRun(a, b *model.Run) int {
	if c := b.StartedAt.Compare(a.StartedAt); c != 0 {
		return c
	}
	return cmp.Compare(b.ID, a.ID)
}

// errChanged reports a run file that changed since it was indexed.
var errChanged = errors.New("run file changed since it was indexed")

// Baseline returns every comparable run of the latest q.Jobs baseline jobs
// of q.Branch (model.BaselineQuery).
func (s *Store) Baseline(ctx context.Context, q model.BaselineQuery) (*model.Baseline, error) {
	if q.Jobs < 1 {
		return nil, fmt.Errorf("filestore: baseline of %d jobs: need at least 1", q.Jobs)
	}
	var b *model.Baseline
	err := s.withLock(ctx, false, func(exists bool) error {
		if !exists {
			b = &model.Baseline{}
			return nil
		}
		ix, repaired, err := s.loadIndex()
		if err != nil {
			return err
		}
		b, err = s.baseline(ix, q)
		if errors.Is(err, errChanged) && !repaired {
			// A run file rewritten in place keeps the directory's
			// modification time: check every file, then choose again.
			if ix, err = s.verifyReader(); err == nil {
				b, err = s.baseline(ix, q)
			}
		}
		return err
	})
	return b, err
}

// baseline selects and loads the baseline of q. A run file that does not
// load is skipped with a warning, and the baseline is selected again from
// the other runs: one damaged file must not take the gate down.
func (s *Store) baseline(ix *index, q model.BaselineQuery) (*model.Baseline, error) {
	runs := ix.Runs
	for {
		b, bad, err := s.loadBaseline(runs, q)
		if bad < 0 {
			return b, err
		}
		s.skipRun(damagedRun{runs[bad].File, err})
		runs = slices.Delete(slices.Clone(runs), bad, bad+1)
	}
}

// loadBaseline selects the baseline of q among runs and loads it. When a
// run file does not load (bad input), it returns that run's position in
// runs and the error; else bad is -1.
func (s *Store) loadBaseline(runs []entry, q model.BaselineQuery) (b *model.Baseline, bad int, err error) {
	b = &model.Baseline{}
	used, passed := selectBaseline(runs, q)
	b.Incomparable = passed
	jobs := make([]model.JobKey, len(used))
	for i := range used {
		jobs[i] = used[i].Run.JobKey()
	}
	ranks, sum := model.JobRanks(jobs), q.Summarizer()
	for i, e := range used {
		load := resultsjson.Load
		if q.Summarizes(ranks[i]) { // reduced as it is read: one benchmark's samples at a time
			load = func(path string) (*model.Results, error) { return resultsjson.LoadSummarized(sum, path) }
		}
		r, err := s.loadRun(e, load)
		if model.IsInputError(err) {
			return nil, slices.IndexFunc(runs, func(x entry) bool { return x.File == e.File }), err
		}
		if err != nil {
			return nil, -1, err
		}
		b.Runs = append(b.Runs, r)
		b.Used = append(b.Used, r.Run.Ref())
	}
	return b, -1, nil
}

// selectBaseline picks the runs of a baseline and the runs it reports as
// passed over, by the rules documented on model.BaselineQuery and
// model.Baseline: every comparable shard of the latest q.Jobs jobs.
func selectBaseline(all []entry, q model.BaselineQuery) (used []entry, passed []model.Incomparable) {
	var cands []*entry // pointers: entries are large to swap while sorting
	for i := range all {
		e := &all[i]
		if (q.Repo == "" || e.Run.Repo == q.Repo) && !q.Excludes(&e.Run) && e.Run.IsBaselineCandidate(q.Branch) &&
			e.Samples > 0 { // a run none of whose benchmarks has samples failed: never a baseline
			cands = append(cands, e)
		}
	}
	slices.SortFunc(cands, func(a, b *entry) int { return newestFirstRun(&a.Run, &b.Run) })
	comparable := make([]bool, len(cands))
	jobs := map[model.JobKey]bool{} // newest first, so a job's first run is its newest shard
	for i, e := range cands {
		comparable[i], _ = model.Comparable(q.Testbed, model.FingerprintOf(&e.Run))
		if k := e.Run.JobKey(); comparable[i] && len(jobs) < q.Jobs {
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
		if len(passed) == q.Jobs || (len(jobs) == q.Jobs && i > oldest) {
			break
		}
		if ok, why := model.Comparable(q.Testbed, model.FingerprintOf(&e.Run)); !ok &&
			(len(used) == 0 || e.Run.Testbed == q.Testbed.Testbed) {
			passed = append(passed, model.Incomparable{Run: e.Run.Ref(), Reason: why})
		}
	}
	return used, passed
}

// loadRun reads and validates a stored run with load (resultsjson.Load, or a
// Summarizer's: one pass). A file that vanished under a valid index means
// another process broke the lock protocol; one whose size or modification
// time differs from its entry is errChanged.
func (s *Store) loadRun(e entry, load func(path string) (*model.Results, error)) (*model.Results, error) {
	file := s.runPath(e.File)
	fi, err := os.Stat(file)
	if notExist(err) {
		return nil, infra("read run "+e.Run.ID, err)
	}
	if err == nil && (fi.Size() != e.Size || fi.ModTime().UnixNano() != e.ModTime) {
		return nil, errChanged
	}
	return load(file)
}

// Trend returns one series per benchmark and unit matching q, one point per
// run. Catalog or series files found damaged are rebuilt from the run files
// first; a process that may not write the store reads every run file
// instead, and warns.
func (s *Store) Trend(ctx context.Context, q model.TrendQuery) ([]model.TrendSeries, error) {
	if _, err := path.Match(q.Pattern, ""); err != nil {
		return nil, &model.InputError{Msg: fmt.Sprintf("benchmark pattern %q: %v", q.Pattern, err), Err: err}
	}
	out, err := s.trend(ctx, q, false)
	d, ok := isDamage(err)
	if !ok {
		return out, err
	}
	if rerr := s.repairDamage(ctx, d); rerr != nil {
		s.warnf("%v, and this process cannot rebuild it (%v): the trend was read from every run file instead", d, rerr)
		return s.trend(ctx, q, true)
	}
	return s.trend(ctx, q, false)
}

// trend reads the series of q: from the series files, or from every run
// file when fromRuns is set.
func (s *Store) trend(ctx context.Context, q model.TrendQuery, fromRuns bool) ([]model.TrendSeries, error) {
	var out []model.TrendSeries
	err := s.withLock(ctx, false, func(exists bool) error {
		if !exists {
			return nil
		}
		ix, _, err := s.loadIndex()
		if err != nil {
			return err
		}
		runs := map[string]*entry{}
		for i := range ix.Runs {
			if e := &ix.Runs[i]; trendMatch(&e.Run, q) {
				runs[e.Run.ID] = e
			}
		}
		out, err = s.series(ctx, runs, q, fromRuns)
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

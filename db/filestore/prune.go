package filestore

import (
	"context"
	"os"
	"slices"

	"github.com/perfgate/perfgate/tracker/model"
)

// Prune deletes the runs started before q.OlderThan, except the latest
// q.KeepBaseline baseline jobs (every shard) of each repo and fingerprint.
// Runs of other branches and pull requests are deleted first, so a prune
// cut short has removed the least valuable history. Shard reports saved
// before q.OlderThan go too (pruneShards).
func (s *Store) Prune(ctx context.Context, q model.PruneQuery) (model.PruneResult, error) {
	var res model.PruneResult
	err := s.withLock(ctx, !q.DryRun, func(exists bool) error {
		if !exists {
			return nil
		}
		var err error
		if res.ShardReports, err = s.pruneShards(q); err != nil {
			return err
		}
		var ix *index
		if q.DryRun {
			ix, _, err = s.loadIndex()
		} else {
			ix, err = s.writerIndex()
		}
		if err != nil {
			return err
		}
		doomed, kept := prunePlan(ix.Runs, q)
		for _, e := range doomed {
			res.Runs++
			res.Samples += e.Samples
		}
		if q.DryRun || len(doomed) == 0 {
			return nil
		}
		// The index goes first: a run file left behind by a crash is found
		// by the next operation's check and indexed again, whole.
		if err := s.writeIndex(&index{Runs: kept}); err != nil {
			return err
		}
		for _, e := range doomed {
			if err := os.Remove(s.runPath(e.File)); err != nil && !notExist(err) {
				return infra("delete run "+e.Run.ID, err)
			}
		}
		keep := make(map[string]bool, len(kept))
		for _, e := range kept {
			keep[e.Run.ID] = true
		}
		err = s.compactSeries(func(id string) bool { return keep[id] })
		if d, ok := isDamage(err); ok {
			err = s.rebuildSeries(d) // from the run files left
		}
		if err != nil {
			return err
		}
		return s.saveState()
	})
	return res, err
}

// prunePlan splits runs into those to delete (non-baseline runs first) and
// those to keep.
func prunePlan(runs []entry, q model.PruneQuery) (doomed, kept []entry) {
	protected := protectedRuns(runs, q)
	var baseline []entry
	for _, e := range runs {
		switch {
		case !e.Run.StartedAt.Before(q.OlderThan) || protected[e.Run.ID]:
			kept = append(kept, e)
		case isBaseline(e, q):
			baseline = append(baseline, e)
		default:
			doomed = append(doomed, e)
		}
	}
	return append(doomed, baseline...), kept
}

// isBaseline reports whether e is a run a baseline query may use: a
// successful run of the baseline branch. A failed run (no samples) is
// neither kept in place of a successful one nor spared until last.
func isBaseline(e entry, q model.PruneQuery) bool {
	return e.Run.IsBaselineCandidate(q.BaselineBranch) && e.Samples > 0
}

// protectedRuns returns the IDs of every shard of the latest q.KeepBaseline
// jobs (model.JobKey) of successful baseline runs of each repo and
// fingerprint: a job is kept whole or not at all.
func protectedRuns(runs []entry, q model.PruneQuery) map[string]bool {
	type config struct {
		repo string
		fp   model.Fingerprint
	}
	groups := map[config][]entry{}
	for _, e := range runs {
		if isBaseline(e, q) {
			c := config{e.Run.Repo, model.FingerprintOf(&e.Run)}
			groups[c] = append(groups[c], e)
		}
	}
	protected := map[string]bool{}
	for _, g := range groups {
		slices.SortFunc(g, newestFirst) // a job's first run is its newest shard
		jobs := map[model.JobKey]bool{}
		for _, e := range g {
			if k := e.Run.JobKey(); len(jobs) < q.KeepBaseline {
				jobs[k] = true
			}
			protected[e.Run.ID] = jobs[e.Run.JobKey()]
		}
	}
	return protected
}

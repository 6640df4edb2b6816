package history

import (
	"context"
	"fmt"

	"github.com/perfgate/perfgate/tracker/model"
)

// A TooManyError is a prune refused because it would delete more runs than
// allowed; nothing was deleted.
type TooManyError struct{ Runs, Max int }

func (e *TooManyError) Error() string {
	return fmt.Sprintf("%d runs is more than the %d allowed without confirmation; nothing deleted", e.Runs, e.Max)
}

// Prune deletes what q selects from st. Unless q is a dry run or yes is
// set, it counts first and refuses with a *TooManyError, deleting nothing,
// when more than max runs would go: a mistyped age must not take the
// history with it. It returns the query it ran last (the dry run, when
// refused) and its result.
func Prune(ctx context.Context, st Pruner, q model.PruneQuery, yes bool, max int) (model.PruneQuery, model.PruneResult, error) {
	if !q.DryRun && !yes {
		dry := q
		dry.DryRun = true
		res, err := st.Prune(ctx, dry)
		if err != nil {
			return dry, res, err
		}
		if res.Runs > max {
			return dry, res, &TooManyError{Runs: res.Runs, Max: max}
		}
	}
	res, err := st.Prune(ctx, q)
	return q, res, err
}

// PruneSummary is the sentence that reports what a prune (q) deleted, or
// would delete on a dry run.
func PruneSummary(q model.PruneQuery, res model.PruneResult) string {
	verb := "deleted"
	if q.DryRun {
		verb = "would delete"
	}
	before := "the beginning"
	if !q.OlderThan.IsZero() {
		before = q.OlderThan.UTC().Format("2006-01-02 15:04Z")
	}
	shards := ""
	if res.ShardReports > 0 {
		shards = fmt.Sprintf(" and %d shard report(s)", res.ShardReports)
	}
	return fmt.Sprintf("%s %d run(s) (%d samples)%s started before %s; kept the latest %d %s run(s) of each testbed",
		verb, res.Runs, res.Samples, shards, before, q.KeepBaseline, q.BaselineBranch)
}

package main

import (
	"context"
	"fmt"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

func init() {
	register(&command{
		Name:    "prune",
		Summary: "delete old history, never the latest baseline runs of a testbed",
		Run:     runPrune,
	})
}

func runPrune(ctx context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "prune", "--older-than 365d [--dry-run] [--baseline-branch main] [--keep 3] [--store DIR | --db URL]")
	var sf storeFlags
	sf.register(fs, e)
	olderThan := fs.String("older-than", "", "delete runs that started longer ago than this `age` (90d, 2w, 36h)")
	dryRun := fs.Bool("dry-run", false, "count what would be deleted, delete nothing")
	branch := fs.String("baseline-branch", envDefault(e, "PERFGATE_BASELINE_BRANCH", "main"),
		"the baseline branch: its runs go last (env PERFGATE_BASELINE_BRANCH)")
	keep := fs.Int("keep", 3, "never delete the latest `K` baseline runs of each repo and testbed configuration")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("prune: unexpected argument %q", fs.Arg(0))
	}
	q, err := pruneQuery(*olderThan, *branch, *keep, *dryRun, time.Now())
	if err != nil {
		return err
	}
	st, err := openStore(ctx, sf)
	if err != nil {
		return err
	}
	defer st.Close()
	res, err := st.Prune(ctx, q)
	if err != nil {
		return err
	}
	verb := "deleted"
	if q.DryRun {
		verb = "would delete"
	}
	fmt.Fprintf(e.Stdout, "%s %d run(s) (%d samples) started before %s; kept the latest %d %s run(s) of each testbed\n",
		verb, res.Runs, res.Samples, describeAge(q.OlderThan), q.KeepBaseline, q.BaselineBranch)
	return nil
}

// pruneQuery validates prune's flags.
func pruneQuery(olderThan, branch string, keep int, dryRun bool, now time.Time) (model.PruneQuery, error) {
	switch {
	case olderThan == "":
		return model.PruneQuery{}, usageError("--older-than: say how old history must be to go, e.g. --older-than 365d")
	case branch == "":
		return model.PruneQuery{}, usageError("--baseline-branch: must not be empty")
	case keep < 0:
		return model.PruneQuery{}, usageError("--keep: must not be negative, got %d", keep)
	}
	d, err := parseAge("older-than", olderThan)
	if err != nil {
		return model.PruneQuery{}, err
	}
	if d == 0 {
		return model.PruneQuery{}, usageError("--older-than: 0 would delete everything but the kept baseline runs; give an age such as 365d")
	}
	return model.PruneQuery{OlderThan: now.Add(-d), BaselineBranch: branch, KeepBaseline: keep, DryRun: dryRun}, nil
}

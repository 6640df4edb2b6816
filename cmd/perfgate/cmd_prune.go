package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/tracker/check"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
)

func init() {
	commands.Register(&cli.Command{Name: "prune", Run: runPrune})
}

// pruneOptions are the parsed flags of perfgate prune.
type pruneOptions struct {
	yes       bool
	maxDelete int // without yes, refuse to delete more runs than this
}

func runPrune(ctx context.Context, args []string, e *cli.Env) error {
	fs := cli.NewFlagSet(e, "prune", "--older-than 365d|12w|6mo|1y [--dry-run] [--yes] [--baseline-branch main] [--keep 3] [--store DIR | --db URL]")
	var sf storeFlags
	sf.register(fs, e)
	sf.existing = true // reads or deletes history only: a mistyped --store is refused
	olderThan := fs.String("older-than", "", "delete runs that started longer ago than this `age`: 90d, 12w, 6mo, 1y or 36h (m is refused: minutes or months?)")
	dryRun := fs.Bool("dry-run", false, "count what would be deleted, delete nothing")
	branch := fs.String("baseline-branch", e.GetenvOr(compare.Lookup(check.SetBranch).Env, check.DefaultBranch),
		envUsage("the baseline branch: its runs go last", check.SetBranch))
	keep := fs.Int("keep", 3, "never delete the latest `K` baseline runs of each repo and testbed configuration")
	var o pruneOptions
	fs.BoolVar(&o.yes, "yes", false, "delete even when that is more than --max-delete runs")
	fs.IntVar(&o.maxDelete, "max-delete", 100, "without --yes, delete nothing when more than `N` runs would go (the count is printed)")
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.UsageErrorf("prune: unexpected argument %q", fs.Arg(0))
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
	q, res, err := history.Prune(ctx, st, q, o.yes, o.maxDelete)
	var tm *history.TooManyError
	if err != nil && !errors.As(err, &tm) {
		return err
	}
	fmt.Fprintln(e.Stdout, history.PruneSummary(q, res))
	if tm != nil {
		return cli.UsageErrorf("prune: %d runs is more than --max-delete %d; nothing deleted. Check --older-than, then run again with --yes", tm.Runs, tm.Max)
	}
	return nil
}

// pruneQuery validates prune's flags.
func pruneQuery(olderThan, branch string, keep int, dryRun bool, now time.Time) (model.PruneQuery, error) {
	switch {
	case olderThan == "":
		return model.PruneQuery{}, cli.UsageErrorf("--older-than: say how old history must be to go, e.g. --older-than 365d")
	case branch == "":
		return model.PruneQuery{}, cli.UsageErrorf("--baseline-branch: must not be empty")
	case keep < 0:
		return model.PruneQuery{}, cli.UsageErrorf("--keep: must not be negative, got %d", keep)
	}
	cutoff, err := cli.AgeCutoff("older-than", olderThan, now)
	if err != nil {
		return model.PruneQuery{}, err
	}
	if cutoff.IsZero() {
		return model.PruneQuery{}, cli.UsageErrorf("--older-than: 0 would delete everything but the kept baseline runs; give an age such as 365d")
	}
	return model.PruneQuery{OlderThan: cutoff, BaselineBranch: branch, KeepBaseline: keep, DryRun: dryRun}, nil
}

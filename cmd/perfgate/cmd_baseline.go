package main

import (
	"context"
	"fmt"
	"time"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/tracker/model"
)

func init() {
	commands.Register(&cli.Command{Name: "baseline", Run: runBaseline})
}

// resetStore is what baseline reset needs of a store; both stores are one.
type resetStore interface {
	AddReset(ctx context.Context, r model.Reset) error
}

// runBaseline is perfgate baseline reset GLOB: a re-baseline point, after
// which the earlier runs of the benchmarks GLOB matches feed neither the
// baseline nor the spread (model.Reset; check applies it).
func runBaseline(ctx context.Context, args []string, e *cli.Env) error {
	fs := cli.NewFlagSet(e, "baseline", "reset GLOB [--reason TEXT] [--repo OWNER/NAME] [--store DIR | --db URL]")
	var sf storeFlags
	sf.register(fs, e)
	sf.existing = true // a mistyped --store is refused, not created
	reason := fs.String("reason", "", "why the level changed (kept with the reset, shown to whoever wonders later)")
	repo := fs.String("repo", e.GetenvOr("GITHUB_REPOSITORY", ""), "the repository whose history is reset, OWNER/NAME; empty: every repository of the store (env GITHUB_REPOSITORY)")
	args, err := cli.ParseFlagsAndFiles(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(args) == 0 || args[0] != "reset":
		return cli.UsageErrorf("baseline: say what to do: perfgate baseline reset GLOB [--reason TEXT]")
	case len(args) != 2:
		return cli.UsageErrorf("baseline reset: name one benchmark GLOB (\"suite/name\", e.g. 'gemm/*'), got %d arguments", len(args)-1)
	}
	r := model.Reset{Repo: *repo, Glob: args[1], At: time.Now().UTC(), Reason: *reason,
		Who: e.GetenvOr("GITHUB_ACTOR", e.GetenvOr("USER", ""))}
	if err := r.Check(); err != nil {
		return cli.UsageErrorf("%v", err)
	}
	st, err := openStore(ctx, sf)
	if err != nil {
		return err
	}
	defer st.Close()
	rs, ok := st.(resetStore)
	if !ok {
		return fmt.Errorf("baseline reset: the store %T keeps no resets", st)
	}
	if err := rs.AddReset(ctx, r); err != nil {
		return err
	}
	fmt.Fprintf(e.Stdout, "perfgate: baseline reset %q at %s by %q: runs before it feed neither the baseline nor the spread of the benchmarks it matches (kept for trend)\n",
		r.Glob, r.At.Format(time.RFC3339), r.Who)
	return nil
}

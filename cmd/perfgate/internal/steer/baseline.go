// Package steer holds the commands that steer the gate
// (docs/action.md, "Steering the gate"): perfgate baseline reset, which it
// parses and hands to tracker/history, and the /perfgate commands of pull
// request comments, which perfgate action hands it (comment.go) and which
// tracker/action answers; package main gives it the store.
package steer

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
)

// A Store opens the history the store flags name; register adds those flags.
type Store struct {
	Register func(fs *flag.FlagSet)
	Open     func(ctx context.Context) (history.Store, error)
}

// Baseline is perfgate baseline reset GLOB [--reason TEXT] [--repo OWNER/NAME]
// (history.Reset): who is $GITHUB_ACTOR, else $USER.
func Baseline(ctx context.Context, args []string, e *cli.Env, st Store) error {
	fs := cli.NewFlagSet(e, "baseline", "reset GLOB [--reason TEXT] [--repo OWNER/NAME] [--store DIR | --db URL]")
	st.Register(fs)
	r := model.Reset{Who: e.GetenvOr("GITHUB_ACTOR", e.GetenvOr("USER", ""))}
	fs.StringVar(&r.Reason, "reason", "", "why the level changed (kept with the reset, shown to whoever wonders later)")
	fs.StringVar(&r.Repo, "repo", e.GetenvOr("GITHUB_REPOSITORY", ""), "the repository whose history is reset, OWNER/NAME; empty: every repository of the store (env GITHUB_REPOSITORY)")
	args, err := cli.ParseFlagsAndFiles(fs, args)
	switch {
	case err != nil:
		return err
	case len(args) == 0 || args[0] != "reset":
		return cli.UsageErrorf("baseline: say what to do: perfgate baseline reset GLOB [--reason TEXT]")
	case len(args) != 2:
		return cli.UsageErrorf("baseline reset: name one benchmark GLOB (\"suite/name\", e.g. 'gemm/*'), got %d arguments", len(args)-1)
	}
	r.Glob, r.At = args[1], time.Now().UTC()
	if err := r.Check(); err != nil {
		return cli.UsageErrorf("%v", err)
	}
	h, err := st.Open(ctx)
	if err != nil {
		return err
	}
	defer h.Close()
	msg, err := history.Reset(ctx, h, r)
	if err == nil {
		fmt.Fprintln(e.Stdout, msg)
	}
	return err
}

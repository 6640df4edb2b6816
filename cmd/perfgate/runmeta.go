package main

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/runmeta"
)

// runMetaFlags are the flags of every command that produces a results
// document (run, ingest, ab). Empty values are filled by runmeta.Resolve:
// from the GitHub Actions environment (GITHUB_*), then from git, then from
// defaults.
type runMetaFlags struct {
	id, repo, commit, branch, event, testbed, group string
	startedAt                                       string // --started-at, RFC 3339
	pr                                              int
	// sources says where the guessed values of the last resolve came from.
	sources runmeta.Sources
}

func (m *runMetaFlags) register(fs *flag.FlagSet, e *cli.Env) {
	fs.StringVar(&m.id, "run-id", "", "run ID (default: a new UUID)")
	fs.StringVar(&m.repo, "repo", "", "repository owner/name (default: $GITHUB_REPOSITORY, else from the git remote)")
	fs.StringVar(&m.commit, "commit", "", "commit SHA (default: $GITHUB_SHA, else git HEAD)")
	fs.StringVar(&m.branch, "branch", "", "branch (default: $GITHUB_HEAD_REF/$GITHUB_REF_NAME, else the git branch when the commit is the checkout's HEAD, else local)")
	fs.StringVar(&m.event, "event", "", "event: "+strings.Join(model.Events, ", ")+" (default: $GITHUB_EVENT_NAME, else local)")
	fs.IntVar(&m.pr, "pr", 0, "pull request number (default: none)")
	testbedEnv := runner.RunSetting("testbed").Env
	fs.StringVar(&m.testbed, "testbed", e.GetenvOr(testbedEnv, ""), "testbed name, e.g. the runner label (env "+testbedEnv+"; default: $RUNNER_NAME, else the host name)")
	fs.StringVar(&m.group, "group", "", "run group tying the shards of one job together")
	fs.StringVar(&m.startedAt, "started-at", "", "when the run started, RFC 3339 (e.g. 2025-03-01T12:00:00Z), for backfilled history (default: now)")
}

// resolve fills the run block of a results document, checking each value
// (runmeta.Resolve).
func (m *runMetaFlags) resolve(ctx context.Context, e *cli.Env, now time.Time) (model.Run, error) {
	g := runmeta.Given{ID: m.id, Repo: m.repo, Commit: m.commit, Branch: m.branch, Event: m.event,
		Testbed: m.testbed, Group: m.group, PR: m.pr}
	if m.startedAt != "" {
		t, err := runmeta.ParseStartedAt(m.startedAt)
		if err != nil {
			return model.Run{}, err
		}
		g.StartedAt = t
	}
	r, src, err := runmeta.Resolve(ctx, g, e.Getenv, now)
	m.sources = src
	return r, err
}

// printMeta says on stderr which metadata a run block got and where the
// guesses came from, so a wrong branch or time is seen before it is stored.
func (m *runMetaFlags) printMeta(e *cli.Env, r *model.Run) {
	fmt.Fprintf(e.Stderr, "perfgate: run metadata: %s\n", runmeta.Describe(r, m.sources))
}

// defaultRepo is the repository of a run no flag names (runmeta.DefaultRepo).
func defaultRepo(ctx context.Context, e *cli.Env) string { return runmeta.DefaultRepo(ctx, e.Getenv) }

// defaultTestbed is the testbed of a run no flag names (runmeta.DefaultTestbed).
func defaultTestbed(e *cli.Env) string { return runmeta.DefaultTestbed(e.Getenv) }

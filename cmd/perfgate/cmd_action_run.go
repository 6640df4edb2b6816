package main

import (
	"context"
	"fmt"

	"github.com/perfgate/perfgate/ab"
	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/cmd/perfgate/internal/ghactions"
	"github.com/perfgate/perfgate/cmd/perfgate/internal/githubapi"
	"github.com/perfgate/perfgate/cmd/perfgate/internal/steer"
	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/action"
	"github.com/perfgate/perfgate/tracker/check"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/confirm"
	"github.com/perfgate/perfgate/tracker/model"
)

// An actionRun is the runner's side of one run of perfgate action: it
// measures (action.Measurer); the job (ghactions.Job) takes what is
// written to the log and the job's files; action.Run decides everything
// else.
type actionRun struct {
	e    *cli.Env
	job  *ghactions.Job
	o    *action.Settings
	cfg  *config.Config // nil: results-file without a config file
	plan *action.Plan
	ab   *ab.Session // the interleaved baseline's worktree, kept for the confirmation
	// preRunNotes are the pre-run checks' warnings, shown in the report
	// and the comment.
	preRunNotes []string
}

var _ action.Measurer = (*actionRun)(nil)

// warnStore makes a store's warning an annotation of the run.
func (a *actionRun) warnStore(msg string) { a.job.Annotate("warning", "", "perfgate: "+msg) }

func (a *actionRun) run(ctx context.Context) error {
	defer a.closeAB()
	gh, notify, err := githubapi.ForPlan(a.plan, a.o, a.e.Getenv("PERFGATE_GITHUB_LOGIN"))
	if err != nil {
		return err
	}
	sf := storeFlags{dir: a.o.StoreDir, dbURL: a.o.DatabaseURL, spool: a.o.SpoolDir, timeout: a.o.DBTimeout, warn: a.warnStore}
	opts := action.RunOptions{
		Plan: a.plan, Config: a.cfg, Compare: a.o.Compare, Explicit: a.o.Explicit,
		BaselineRuns: a.o.BaselineRuns, BaselineTestbed: a.o.BaselineTestbed, Filter: a.o.Filter,
		Confirm: a.o.Confirm, Comment: a.o.Comment, Shard: a.o.Shard, Secrets: action.Secrets(a.o.Token, a.o.DatabaseURL),
		Version: buildVersion(), ReportPath: a.o.ReportPath, ServerURL: a.o.Env.ServerURL,
		Measurer: a,
		OpenStore: func(ctx context.Context) (action.Store, func() error, error) {
			st, err := openStore(ctx, sf)
			if err != nil {
				return nil, nil, err
			}
			return st, st.Close, nil
		},
		Spool:  func(runs []*model.Results, err error) error { return spoolOnFailure(a.e, sf, runs, err) },
		GitHub: gh, Notify: notify, Log: a.job, Files: a.job, Stdout: a.e.Stdout, Stderr: a.e.Stderr,
	}
	if a.plan.Kind == action.KindSteer || a.plan.Kind == action.KindIgnore { // a comment: /perfgate run goes on as a check
		next, err := steer.Comment(ctx, a.e, a.o, opts)
		if next == nil || err != nil {
			return err
		}
		a.plan, a.cfg = next.Plan, next.Config
		return a.run(ctx)
	}
	out, err := action.Run(ctx, opts)
	switch {
	case err != nil:
		return err
	case out.Failed && out.GitHubErr != nil:
		fmt.Fprintf(a.e.Stderr, "perfgate: also, GitHub could not be updated: %v\n", out.GitHubErr)
		return cli.ErrRegression
	case out.Failed:
		return cli.ErrRegression
	case out.GitHubErr != nil:
		return &cli.ExitError{Code: cli.ExitInfra, Err: fmt.Errorf("the verdict (%s) is in the job summary and outputs, but GitHub could not be updated: %w", out.Tally.Verdict(), out.GitHubErr)}
	}
	return nil
}

// Measure returns the runs to judge and their names for messages: the
// results-file inputs or the config's suites run here, or, in the
// interleaved baseline, the head side of an A/B run here with the base side's
// rounds.
func (a *actionRun) Measure(ctx context.Context) (*action.Measurement, error) {
	m := &action.Measurement{Local: len(a.o.ResultFiles) == 0 && a.cfg != nil}
	if len(a.o.ResultFiles) == 0 {
		if err := a.preRun(ctx); err != nil {
			return nil, err
		}
	}
	m.PreRunNotes = a.preRunNotes
	var err error
	if !a.plan.Interleaved {
		skipAgainst, cleanup := a.skipUnchanged(ctx)
		defer cleanup()
		m.Runs, m.Names, err = loadActionResults(ctx, a.e, a.o, a.cfg, skipAgainst)
		if m.Local {
			a.o.GroupShards(m.Runs)
		}
		return m, err
	}
	if m.Base, m.Runs, err = a.measureAB(ctx); err != nil {
		return nil, err
	}
	a.o.GroupShards(m.Runs)
	m.Names = check.RunNames(m.Runs)
	return m, nil
}

// Confirm re-runs the regressions of first in fresh processes, alone (the
// history baseline, against baseline b) or interleaved with the base commit
// (with m.Base as the first base rounds).
func (a *actionRun) Confirm(ctx context.Context, b *model.Baseline, m *action.Measurement, first *compare.Comparison) (*compare.Comparison, *confirm.Confirmation, []*model.Results) {
	if a.plan.Interleaved {
		return a.confirmAB(ctx, m.Base, m.Runs, first)
	}
	return check.Confirm(ctx, &runner.Confirmer{Runner: newRunner(a.e), Rounds: confirm.DefaultRounds, Config: a.cfg}, confirm.DefaultRounds, b, m.Runs, first)
}

package main

import (
	"context"
	"fmt"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/cmd/perfgate/internal/ghactions"
	"github.com/perfgate/perfgate/cmd/perfgate/internal/githubapi"
	"github.com/perfgate/perfgate/cmd/perfgate/internal/steer"
	"github.com/perfgate/perfgate/runner/actionjob"
	"github.com/perfgate/perfgate/tracker/action"
	"github.com/perfgate/perfgate/tracker/check"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
)

// runActionPlan runs the plan of one perfgate action: a comment is steered
// (steer.Comment; a /perfgate run goes on as the check of the head it
// checked out), everything else is measured here (actionjob.Job) and
// judged and published by action.Run.
func runActionPlan(ctx context.Context, e *cli.Env, job *ghactions.Job, o *action.Settings, cfg *config.Config, plan *action.Plan) error {
	gh, notify, err := githubapi.ForPlan(plan, o, e.Getenv("PERFGATE_GITHUB_LOGIN"))
	if err != nil {
		return err
	}
	warn := func(msg string) { job.Annotate("warning", "", "perfgate: "+msg) }
	sf := storeFlags{dir: o.StoreDir, dbURL: o.DatabaseURL, spool: o.SpoolDir, timeout: o.DBTimeout, warn: warn}
	measurer := &actionjob.Job{Runner: newRunner(e), Settings: o, Config: cfg, Plan: plan, Getenv: e.Getenv, Log: job, Stderr: e.Stderr,
		History: func(ctx context.Context) (check.BaselineSource, func() error, error) {
			st, err := openStore(ctx, sf)
			if err != nil {
				return nil, nil, err
			}
			return st, st.Close, nil
		}}
	defer measurer.Close()
	opts := action.RunOptions{
		Plan: plan, Config: cfg, Compare: o.Compare, Explicit: o.Explicit,
		BaselineRuns: o.BaselineRuns, BaselineTestbed: o.BaselineTestbed, Filter: o.Filter,
		Confirm: o.Confirm, Comment: o.Comment, Shard: o.Shard, Secrets: action.Secrets(o.Token, o.DatabaseURL),
		Version: buildVersion(), ReportPath: o.ReportPath, ServerURL: o.Env.ServerURL,
		Measurer: measurer,
		OpenStore: func(ctx context.Context) (action.Store, func() error, error) {
			st, err := openStore(ctx, sf)
			if err != nil {
				return nil, nil, err
			}
			return st, st.Close, nil
		},
		Spool:  func(runs []*model.Results, err error) error { return spoolOnFailure(e, sf, runs, err) },
		GitHub: gh, Notify: notify, Log: job, Files: job, Stdout: e.Stdout, Stderr: e.Stderr,
	}
	if plan.Kind == action.KindSteer || plan.Kind == action.KindIgnore { // a comment: /perfgate run goes on as a check
		next, err := steer.Comment(ctx, e, o, opts)
		if next == nil || err != nil {
			return err
		}
		return runActionPlan(ctx, e, job, o, next.Config, next.Plan)
	}
	out, err := action.Run(ctx, opts)
	switch {
	case err != nil:
		return err
	case out.Failed && out.GitHubErr != nil:
		fmt.Fprintf(e.Stderr, "perfgate: also, GitHub could not be updated: %v\n", out.GitHubErr)
		return cli.ErrRegression
	case out.Failed:
		return cli.ErrRegression
	case out.GitHubErr != nil:
		return &cli.ExitError{Code: cli.ExitInfra, Err: fmt.Errorf("the verdict (%s) is in the job summary and outputs, but GitHub could not be updated: %w", out.Tally.Verdict(), out.GitHubErr)}
	}
	return nil
}

package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/cmd/perfgate/internal/ghactions"
	"github.com/perfgate/perfgate/cmd/perfgate/internal/githubapi"
	"github.com/perfgate/perfgate/cmd/perfgate/internal/steer"
	"github.com/perfgate/perfgate/db/filestore"
	"github.com/perfgate/perfgate/db/open"
	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/runner/actionjob"
	"github.com/perfgate/perfgate/tracker/action"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/spool"
)

func init() {
	commands.Register(&cli.Command{Name: "action", Run: runAction})
}

// actionDefaults are the defaults the inputs fall back to that other
// packages own.
var actionDefaults = action.Defaults{
	StoreDir: filestore.DefaultDir, SpoolDir: spool.DefaultDir,
	GitHubTimeout: githubapi.DefaultTimeout, DBTimeout: open.DefaultTimeout,
	Rounds: runner.DefaultActionRounds, MaxRounds: runner.MaxRounds, PreRunPolicies: runner.PreRunPolicies,
}

func runAction(ctx context.Context, args []string, e *cli.Env) error {
	fs := cli.NewFlagSet(e, "action", "(no flags: configured by the GitHub Action's inputs, see docs/action.md)")
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.UsageErrorf("action: unexpected argument %q (it takes its inputs from INPUT_* variables)", fs.Arg(0))
	}
	if e.Getenv("GITHUB_ACTIONS") != "true" {
		return errNotInActions
	}
	// perfgate's own workflow commands go to the log as they are; every
	// other line passes through an action.LogWriter, which keeps hostile text
	// (benchmark names, run ids, messages) from being read as a command.
	job := ghactions.New(e.Getenv, e.Stdout)
	stdout, stderr := action.NewLogWriter(e.Stdout), action.NewLogWriter(e.Stderr)
	e.Stdout, e.Stderr = stdout, stderr
	defer stdout.Flush()
	defer stderr.Flush()
	// Mask before anything else is printed.
	job.Mask(action.Secrets(job.Input("github-token"), job.Input("database-url")))
	o, err := action.ReadSettings(job.Input, e.Getenv, actionDefaults)
	if err != nil {
		return err
	}
	job.ReportPath = o.ReportPath
	for _, w := range o.Warnings {
		job.Annotate("warning", "perfgate: deprecated input", w)
	}
	cfg, err := config.LoadOptional(ctx, o.Config, len(o.ResultFiles) > 0)
	if err != nil {
		return err
	}
	for _, w := range cfg.Warnings() {
		job.Annotate("warning", "perfgate: deprecated config key", w)
	}
	o.UseConfig(cfg)
	event, err := job.ReadEvent()
	if err != nil {
		return err
	}
	plan, err := action.Decide(o.Env, event, o.Inputs)
	if err != nil {
		return planError(job, err)
	}
	fmt.Fprintf(e.Stderr, "perfgate: %s on %s (%s): %s, baseline branch %s\n",
		plan.Event, plan.Repo, model.ShortSHA(plan.HeadSHA), plan.Kind, plan.BaselineBranch)
	return runActionPlan(ctx, e, job, o, cfg, plan)
}

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
		History: func(ctx context.Context) (history.BaselineSource, func() error, error) {
			st, err := openStore(ctx, sf)
			if err != nil {
				return nil, nil, err
			}
			return st, st.Close, nil
		}}
	defer measurer.Close()
	opts := action.RunOptions{
		Plan: plan, Config: cfg, Compare: o.Compare, Explicit: o.Explicit,
		BaselineJobs: o.BaselineJobs, BaselineTestbed: o.BaselineTestbed, Filter: o.Filter,
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
		return &cli.ExitError{Code: cli.ExitInfra, Err: fmt.Errorf("the verdict (%s) is in the job summary and outputs, but GitHub could not be updated: %w", out.Verdict, out.GitHubErr)}
	}
	return nil
}

// errNotInActions answers 'perfgate action' run by hand: it reads its
// inputs and the event from a GitHub Actions job, so anything it said
// about them (".perfgate.yml: cannot read") would mislead.
var errNotInActions = cli.UsageErrorf("action: not running in GitHub Actions (GITHUB_ACTIONS is not \"true\"): it is the GitHub Action's entry point and reads its inputs (INPUT_*) and the event (GITHUB_*) from the job. " +
	"To try a workflow locally, run it with act (docs/action.md, \"Trying it locally\"); to judge results by hand, use 'perfgate check' or 'perfgate compare'")

// planError maps the event decision's failures: a refused fork is exit 3
// (the job must not go green by accident), an unsupported event or a
// malformed environment exit 2.
func planError(job *ghactions.Job, err error) error {
	var fe *action.ForkError
	if errors.As(err, &fe) {
		job.Annotate("error", "perfgate refused a fork", fe.Error())
		return &cli.ExitError{Code: cli.ExitInfra, Err: err}
	}
	return &cli.ExitError{Code: cli.ExitBadInput, Err: err}
}

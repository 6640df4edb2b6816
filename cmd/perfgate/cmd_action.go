package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/cmd/perfgate/internal/ghactions"
	"github.com/perfgate/perfgate/cmd/perfgate/internal/githubapi"
	"github.com/perfgate/perfgate/db/filestore"
	"github.com/perfgate/perfgate/db/open"
	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/action"
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
	cfg, err := o.LoadConfig(ctx)
	if err != nil {
		return err
	}
	event, err := o.ReadEvent()
	if err != nil {
		return err
	}
	plan, err := action.Decide(o.Env, event, o.Inputs)
	if err != nil {
		return planError(job, err)
	}
	fmt.Fprintf(e.Stderr, "perfgate: %s on %s (%s): %s, baseline branch %s\n",
		plan.Event, plan.Repo, model.ShortSHA(plan.HeadSHA), plan.Kind, plan.BaselineBranch)
	return (&actionRun{e: e, job: job, o: o, cfg: cfg, plan: plan}).run(ctx)
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

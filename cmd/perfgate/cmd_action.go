package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/sethvargo/go-githubactions"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/cmd/perfgate/internal/githubapi"
	"github.com/perfgate/perfgate/db/filestore"
	"github.com/perfgate/perfgate/db/open"
	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/action"
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
	fs := cli.NewFlagSet(e.Stderr, "action", "(no flags: configured by the GitHub Action's inputs, see docs/action.md)")
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
	gha := githubactions.New(githubactions.WithGetenv(e.Getenv), githubactions.WithWriter(e.Stdout))
	stdout, stderr := action.NewLogWriter(e.Stdout), action.NewLogWriter(e.Stderr)
	e.Stdout, e.Stderr = stdout, stderr
	defer stdout.Flush()
	defer stderr.Flush()
	// Mask before anything else is printed.
	for _, s := range action.Secrets(gha.GetInput("github-token"), gha.GetInput("database-url")) {
		gha.AddMask(s)
	}
	o, err := action.ReadSettings(gha.GetInput, e.Getenv, actionDefaults)
	if err != nil {
		return err
	}
	for _, w := range o.Warnings {
		gha.WithFieldsMap(map[string]string{"title": "perfgate: deprecated input"}).Warningf("%s", w)
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
		return planError(gha, err)
	}
	fmt.Fprintf(e.Stderr, "perfgate: %s on %s (%s): %s, baseline branch %s\n",
		plan.Event, plan.Repo, shortSHA(plan.HeadSHA), plan.Kind, plan.BaselineBranch)
	a := &actionRun{e: e, gha: gha, o: o, cfg: cfg, plan: plan}
	return a.run(ctx)
}

// errNotInActions answers 'perfgate action' run by hand: it reads its
// inputs and the event from a GitHub Actions job, so anything it said
// about them (".perfgate.yml: cannot read") would mislead.
var errNotInActions = cli.UsageErrorf("action: not running in GitHub Actions (GITHUB_ACTIONS is not \"true\"): it is the GitHub Action's entry point and reads its inputs (INPUT_*) and the event (GITHUB_*) from the job. " +
	"To try a workflow locally, run it with act (docs/action.md, \"Trying it locally\"); to judge results by hand, use 'perfgate check' or 'perfgate compare'")

// planError maps the event decision's failures: a refused fork is exit 3
// (the job must not go green by accident), an unsupported event or a
// malformed environment exit 2.
func planError(gha *githubactions.Action, err error) error {
	var fe *action.ForkError
	if errors.As(err, &fe) {
		gha.WithFieldsMap(map[string]string{"title": "perfgate refused a fork"}).Errorf("%s", fe.Error())
		return &cli.ExitError{Code: cli.ExitInfra, Err: err}
	}
	return &cli.ExitError{Code: cli.ExitBadInput, Err: err}
}

// githubClient makes the GitHub client the check kind and notify-changes
// use.
func githubClient(o *action.Settings, e *cli.Env, need string) (*githubapi.Client, func(context.Context) (string, error), error) {
	if o.Token == "" {
		return nil, nil, cli.UsageErrorf("github-token: empty; %s needs it", need)
	}
	c, err := githubapi.New(o.APIURL, o.Token, githubapi.Options{Timeout: o.GitHubTimeout})
	if err != nil {
		return nil, nil, cli.UsageErrorf("%v", err)
	}
	override := e.Getenv("PERFGATE_GITHUB_LOGIN")
	return c, func(ctx context.Context) (string, error) { return c.Login(ctx, override) }, nil
}

package main

import (
	"context"
	"fmt"
	"os"

	"github.com/sethvargo/go-githubactions"

	"github.com/perfgate/perfgate/ab"
	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/action"
	"github.com/perfgate/perfgate/tracker/check"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/confirm"
	"github.com/perfgate/perfgate/tracker/model"
)

// An actionRun is the runner's side of one run of perfgate action: it
// measures (action.Measurer) and writes to the job (action.Log,
// action.Files); action.Run decides everything else.
type actionRun struct {
	e    *cli.Env
	gha  *githubactions.Action
	o    *action.Settings
	cfg  *config.Config // nil: results-file without a config file
	plan *action.Plan
	ab   *ab.Session // the interleaved baseline's worktree, kept for the confirmation
	// preRunNotes are the pre-run checks' warnings, shown in the report
	// and the comment.
	preRunNotes []string
}

var (
	_ action.Measurer = (*actionRun)(nil)
	_ action.Log      = (*actionRun)(nil)
	_ action.Files    = (*actionRun)(nil)
)

func (a *actionRun) run(ctx context.Context) error {
	defer a.closeAB()
	gh, notify, err := a.githubClients()
	if err != nil {
		return err
	}
	sf := storeFlags{dir: a.o.StoreDir, dbURL: a.o.DatabaseURL, spool: a.o.SpoolDir, timeout: a.o.DBTimeout}
	out, err := action.Run(ctx, action.RunOptions{
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
		GitHub: gh, Notify: notify, Log: a, Files: a, Stdout: a.e.Stdout, Stderr: a.e.Stderr,
	})
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

// Group, EndGroup and Annotate write to the job's log (action.Log).
func (a *actionRun) Group(title string) { a.gha.Group(title) }
func (a *actionRun) EndGroup()          { a.gha.EndGroup() }

func (a *actionRun) Annotate(level, title, msg string) {
	g := a.gha
	if title != "" {
		g = g.WithFieldsMap(map[string]string{"title": title})
	}
	if level == "error" {
		g.Errorf("%s", msg)
		return
	}
	g.Warningf("%s", msg)
}

// AddStepSummary, SetOutputs and WriteReport keep the job's files
// (action.Files).
func (a *actionRun) AddStepSummary(md string) { a.gha.AddStepSummary(md) }

func (a *actionRun) SetOutputs(pairs [][2]string) error {
	return action.WriteOutputs(a.e.Getenv("GITHUB_OUTPUT"), pairs)
}

func (a *actionRun) WriteReport(md string) error {
	if err := os.WriteFile(a.o.ReportPath, []byte(md), 0o644); err != nil {
		return &model.InfraError{Op: "write the report " + a.o.ReportPath, Err: err}
	}
	return nil
}

// githubClients makes the GitHub clients the plan needs: comments and
// statuses to judge a pull request, commit comments or issues to announce
// a recorded push's change points (nil when notify-changes is off).
func (a *actionRun) githubClients() (*action.GitHub, *action.Notify, error) {
	switch {
	case a.plan.Kind == action.KindCheck:
		c, login, err := githubClient(a.o, a.e, "a pull request check (to comment and set the status)")
		if err != nil {
			return nil, nil, err
		}
		return &action.GitHub{Comments: c.Comments(), Statuses: c.Statuses(), Login: login}, nil, nil
	case a.plan.Kind == action.KindBaseline && a.plan.Record && a.o.Notify != action.NotifyOff:
		c, login, err := githubClient(a.o, a.e, "notify-changes: "+string(a.o.Notify))
		if err != nil {
			return nil, nil, err
		}
		return nil, &action.Notify{Policy: a.o.Notify, CommitComments: c.CommitComments(), Issues: c.Issues(), DashboardURL: a.o.DashboardURL, Login: login}, nil
	}
	return nil, nil, nil
}

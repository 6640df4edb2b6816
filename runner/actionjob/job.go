package actionjob

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/perfgate/perfgate/ab"
	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/action"
	"github.com/perfgate/perfgate/tracker/check"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/confirm"
	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/runmeta"
)

// A Job measures one run of perfgate action.
type Job struct {
	Runner   *runner.Runner
	Settings *action.Settings
	Config   *config.Config // nil: results files without a config file
	Plan     *action.Plan
	// Getenv is the job's environment: the run block of runs measured here
	// (GITHUB_*, PERFGATE_TESTBED, the checkout) and RUNNER_TEMP.
	Getenv func(string) string
	// History opens the history for skip-unchanged-kernels; the caller's
	// close func is called once the baseline is read.
	History func(ctx context.Context) (history.BaselineSource, func() error, error)
	Log     action.Log // pre-run warnings, refusals and skip warnings
	Stderr  io.Writer

	ab *ab.Session // the interleaved baseline's worktree, kept for the confirmation
	// base are the A/B's base rounds, head the runs measured (for Confirm).
	base []*model.Results
}

var _ action.Measurer = (*Job)(nil)

// Measure returns the runs to judge and their names for messages: the
// results-file inputs or the config's suites run here, or, in the
// interleaved baseline, the head side of an A/B run here with the base
// side's rounds.
func (j *Job) Measure(ctx context.Context) (*action.Measurement, error) {
	m := &action.Measurement{}
	if files := j.Settings.ResultFiles; len(files) > 0 {
		runs, err := LoadResultFiles(j.Settings)
		m.Runs, m.Names = runs, files
		return m, err
	}
	var err error
	if m.PreRunNotes, err = j.preRun(ctx); err != nil {
		return nil, err
	}
	if j.Plan.Interleaved {
		if m.Base, m.Runs, err = j.measureAB(ctx); err != nil {
			return nil, err
		}
		j.base = m.Base
	} else if m.Runs, err = j.configRuns(ctx); err != nil {
		return m, err
	}
	groupShards(j.Settings, m.Runs)
	m.Names = check.RunNames(m.Runs)
	return m, nil
}

// Confirm re-runs the regressions of first in fresh processes, alone (the
// history baseline, against baseline b) or interleaved with the base commit
// (the A/B's base rounds first). Runs made outside the action (results
// files) are not re-run: first stands.
func (j *Job) Confirm(ctx context.Context, b *model.Baseline, cands []*model.Results, first *compare.Comparison) (*compare.Comparison, *confirm.Confirmation, []*model.Results) {
	switch {
	case len(j.Settings.ResultFiles) > 0 || j.Config == nil:
		fmt.Fprintf(j.Stderr, "perfgate: confirm: the results files were made outside this action, so the regressions are not re-run\n")
		return first, nil, nil
	case j.Plan.Interleaved:
		return j.ab.Confirm(ctx, j.base, cands, first, func(b, h []*model.Results) (*compare.Comparison, error) {
			return check.JudgeAB(b, h, first.Options)
		})
	}
	rr := &runner.Confirmer{Runner: j.Runner, Rounds: confirm.DefaultRounds, Config: j.Config}
	return check.Confirm(ctx, rr, confirm.DefaultRounds, b, cands, first)
}

// Close removes the interleaved baseline's worktree, if there is one.
func (j *Job) Close() {
	if j.ab != nil {
		j.ab.Close()
		j.ab = nil
	}
}

// preRun runs perfgate doctor's checks before the suites run, under the
// pre-run-checks input: each warning becomes a log annotation and a note in
// the report and the comment; under strict, a GPU another process uses,
// with clocks held down, partitioned by MIG or hot refuses the run (exit 3).
func (j *Job) preRun(ctx context.Context) ([]string, error) {
	warnings, err := j.Runner.PreRun(ctx, j.Settings.PreRun)
	for _, w := range warnings {
		j.Log.Annotate("warning", "perfgate pre-run check", w)
	}
	if err != nil {
		j.Log.Annotate("error", "perfgate refused to measure", err.Error())
	}
	return warnings, err
}

// configRuns runs the suites of the config (runner.ConfigRuns) with run
// blocks from the GitHub Actions environment; the filter input selects
// suites.
func (j *Job) configRuns(ctx context.Context) ([]*model.Results, error) {
	skipAgainst, cleanup := j.skipUnchanged(ctx)
	defer cleanup()
	run, err := j.runMeta(ctx)
	if err != nil {
		return nil, err
	}
	o := runner.ConfigOptions{Only: j.Settings.Filter, SkipUnchangedAgainst: skipAgainst}
	return j.Runner.ConfigRuns(ctx, j.Config, o, j.Settings.Rounds, run)
}

// measureAB runs the interleaved baseline (ab.Interleaved): the pull
// request's merge base and its head alternately on this machine. It keeps
// the session for the confirmation; Close closes it.
func (j *Job) measureAB(ctx context.Context) (base, head []*model.Results, err error) {
	ref, err := j.Plan.BaseCommit()
	if err != nil {
		return nil, nil, &model.InputError{Msg: err.Error(), Err: err}
	}
	run, err := j.runMeta(ctx)
	if err != nil {
		return nil, nil, err
	}
	o := ab.Options{Base: ref, BaseBranch: j.Plan.BaseRef, Repo: runmeta.DefaultRepo(ctx, j.Getenv)}
	j.ab, base, head, err = ab.Interleaved(ctx, j.Runner, o, j.Config, j.Settings.Filter, j.Settings.Rounds, run)
	return base, head, err
}

// runMeta is the run block of runs measured here: the GitHub Actions
// environment, PERFGATE_TESTBED and the checkout.
func (j *Job) runMeta(ctx context.Context) (model.Run, error) {
	r, _, err := runmeta.Resolve(ctx, runmeta.Given{Testbed: j.Getenv(runner.RunSetting("testbed").Env)}, j.Getenv, time.Now())
	return r, err
}

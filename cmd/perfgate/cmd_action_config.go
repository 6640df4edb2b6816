package main

import (
	"context"
	"time"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/action"
	"github.com/perfgate/perfgate/tracker/check"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
)

// loadActionResults reads the results-file inputs, or runs the suites of
// cfg (runner.ConfigRuns) with run blocks from the GitHub Actions
// environment; the filter input selects suites either way. skipAgainst
// names the baseline files of skip-unchanged-kernels ("": none).
func loadActionResults(ctx context.Context, e *cli.Env, o *action.Settings, cfg *config.Config, skipAgainst string) ([]*model.Results, []string, error) {
	if len(o.ResultFiles) > 0 {
		runs, err := o.LoadResultFiles()
		return runs, o.ResultFiles, err
	}
	run, err := actionRunMeta(ctx, e)
	if err != nil {
		return nil, nil, err
	}
	runs, err := newRunner(e).ConfigRuns(ctx, cfg, runner.ConfigOptions{Only: o.Filter, SkipUnchangedAgainst: skipAgainst}, o.Rounds, run)
	if err != nil {
		return nil, nil, err
	}
	return runs, check.RunNames(runs), nil
}

// actionRunMeta is the run block of runs measured here: the GitHub Actions
// environment, PERFGATE_TESTBED and the checkout.
func actionRunMeta(ctx context.Context, e *cli.Env) (model.Run, error) {
	meta := runMetaFlags{testbed: e.Getenv("PERFGATE_TESTBED")}
	return meta.resolve(ctx, e, time.Now())
}

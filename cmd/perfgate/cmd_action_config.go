package main

import (
	"context"
	"regexp"
	"time"

	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
)

// loadActionConfig reads the config input (default .perfgate.yml). With
// results-file and no config input, a missing .perfgate.yml is no error:
// the action then judges with its inputs alone.
func loadActionConfig(ctx context.Context, o *actionOptions) (*config.Config, error) {
	path := o.config
	if path == "" {
		var found bool
		if path, found = config.Find(ctx, ""); !found && len(o.resultFiles) > 0 {
			return nil, nil
		}
	}
	return config.Load(path)
}

// applyConfigDefaults takes the config's baseline branch when the
// baseline-branch input leaves it open: the plan needs it. The rest of the
// config's settings apply in action.Run (check.ApplyConfig).
func (o *actionOptions) applyConfigDefaults(cfg *config.Config) {
	if cfg != nil && o.inputs.BaselineBranch == "" {
		o.inputs.BaselineBranch = cfg.Baseline.Branch
	}
}

// runActionSuites runs the config's suites (those whose name only matches,
// when set) in rounds and returns one results document per round, their run
// blocks filled from the GitHub Actions environment. One round runs here,
// in this process; more run each suite in its own process per round
// (runner.ConfigRounds), as rounds of one job (<job>-r1 …, one run group).
func runActionSuites(ctx context.Context, e *env, cfg *config.Config, only *regexp.Regexp, rounds int) ([]*model.Results, error) {
	meta := runMetaFlags{testbed: e.Getenv("PERFGATE_TESTBED")}
	run, err := meta.resolve(ctx, e, time.Now())
	if err != nil {
		return nil, err
	}
	if rounds > 1 {
		rs, err := newRunner(e).ConfigRounds(ctx, cfg, runner.ConfigOptions{Only: only}, runner.Spec{Rounds: rounds, Run: run, Prefix: "r"})
		if err == nil && len(rs) == 0 {
			err = usageError("filter: %q matches no suite of %s", only, cfg.File)
		}
		return rs, err
	}
	bs, gpuEnv, err := newRunner(e).Config(ctx, cfg, runner.ConfigOptions{Only: only})
	if err != nil {
		return nil, err
	}
	if len(bs) == 0 && only != nil {
		return nil, usageError("filter: %q matches no suite of %s", only, cfg.File)
	}
	run.Env = gpuEnv
	r := &model.Results{Schema: model.Schema, Run: run, Benchmarks: bs}
	if err := checkBuiltResults(r); err != nil {
		return nil, err
	}
	return []*model.Results{r}, nil
}

// filterSuites keeps the benchmarks of results-file runs whose suite only
// matches; a filter that keeps nothing is a usage error.
func filterSuites(runs []*model.Results, only *regexp.Regexp) ([]*model.Results, error) {
	kept := 0
	for _, r := range runs {
		var bs []model.Benchmark
		for _, b := range r.Benchmarks {
			if only.MatchString(b.Suite) {
				bs = append(bs, b)
			}
		}
		r.Benchmarks = bs
		kept += len(bs)
	}
	if kept == 0 {
		return nil, usageError("filter: %q matches no suite of the results files", only)
	}
	return runs, nil
}

package runner

import (
	"context"

	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
)

// ConfigRuns runs cfg's suites (those whose name o.Only matches, when set)
// as o says, in rounds and returns one results document per round, with run as its
// run block. One round runs here, in this process; more run each suite in
// its own process per round (ConfigRounds), as rounds of one job (<job>-r1
// …, one run group). A filter that matches no suite is an input error.
func (r *Runner) ConfigRuns(ctx context.Context, cfg *config.Config, o ConfigOptions, rounds int, run model.Run) ([]*model.Results, error) {
	only := o.Only
	if rounds > 1 {
		rs, err := r.ConfigRounds(ctx, cfg, o, Spec{Rounds: rounds, Run: run, Prefix: "r"})
		if err == nil && len(rs) == 0 {
			err = inputErr("filter: %q matches no suite of %s", only, cfg.File)
		}
		return rs, err
	}
	bs, gpuEnv, err := r.Config(ctx, cfg, o)
	if err != nil {
		return nil, err
	}
	if len(bs) == 0 && only != nil {
		return nil, inputErr("filter: %q matches no suite of %s", only, cfg.File)
	}
	run.Env = gpuEnv
	res := &model.Results{Schema: model.Schema, Run: run, Benchmarks: bs}
	if err := Validate(res); err != nil {
		return nil, err
	}
	return []*model.Results{res}, nil
}

package actionjob

import (
	"context"
	"fmt"

	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/action"
	"github.com/perfgate/perfgate/tracker/check"
	"github.com/perfgate/perfgate/tracker/model"
)

// LoadResultFiles reads the results-file inputs (check.LoadCandidates)
// and keeps the benchmarks of the suites the filter input matches; a
// filter that keeps nothing is an input error.
func LoadResultFiles(s *action.Settings) ([]*model.Results, error) {
	runs, err := check.LoadCandidates(s.ResultFiles)
	if err != nil || s.Filter == nil {
		return runs, err
	}
	kept := 0
	for _, r := range runs {
		var bs []model.Benchmark
		for _, b := range r.Benchmarks {
			if s.Filter.MatchString(b.Suite) {
				bs = append(bs, b)
			}
		}
		r.Benchmarks = bs
		kept += len(bs)
	}
	if kept == 0 {
		return nil, &model.InputError{Msg: fmt.Sprintf("filter: %q matches no suite of the results files", s.Filter)}
	}
	return runs, nil
}

// groupShards puts runs measured here into the sharded job's run group,
// so that a sharded job's history is one job to the baseline.
func groupShards(s *action.Settings, runs []*model.Results) {
	if s.Shard.Count <= 1 {
		return
	}
	for _, r := range runs {
		r.Run.Group = s.ShardGroup
	}
}

// skipUnchanged prepares the skip-unchanged-kernels input of a pull
// request whose suites run here: it writes the runs of the check's
// baseline query to a temporary folder (runner.WriteSkipBaseline) and
// returns them for runner.ConfigOptions.SkipUnchangedAgainst ("": measure
// everything), with a function that removes the folder. A baseline that
// cannot be read is a warning: everything is measured.
func (j *Job) skipUnchanged(ctx context.Context) (against string, cleanup func()) {
	cleanup = func() {}
	if !j.Settings.SkipUnchanged || !j.Plan.Skips() || j.Config == nil {
		return "", cleanup
	}
	against, cleanup, err := j.writeSkipBaseline(ctx)
	if err != nil {
		j.Log.Annotate("warning", "", fmt.Sprintf("perfgate: skip-unchanged-kernels: every benchmark is measured: %v", err))
		return "", cleanup
	}
	return against, cleanup
}

// writeSkipBaseline reads the baseline this pull request is judged
// against (action.SkipBaseline) and writes its runs under RUNNER_TEMP.
func (j *Job) writeSkipBaseline(ctx context.Context) (against string, cleanup func(), err error) {
	cleanup = func() {}
	cand, err := j.runMeta(ctx)
	if err != nil {
		return "", cleanup, err
	}
	src, closeHistory, err := j.History(ctx)
	if err != nil {
		return "", cleanup, err
	}
	defer closeHistory()
	s := j.Settings
	runs, err := action.SkipBaseline(ctx, src, &cand,
		check.Query{Branch: j.Plan.BaselineBranch, Testbed: s.BaselineTestbed, Jobs: s.BaselineJobs}, j.Config)
	if err != nil {
		return "", cleanup, err
	}
	return runner.WriteSkipBaseline(j.Getenv("RUNNER_TEMP"), runs, j.Config, s.Filter, j.Stderr)
}

package main

import (
	"context"
	"errors"
	"flag"
	"time"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/tracker/check"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/trend"
)

// trendFlags select a history and tune step detection: trend and chart
// trend share them.
type trendFlags struct {
	pattern, suite, since, branch, testbed, repo string
	threshold, maxP                              float64       // threshold in percent
	resets                                       []model.Reset // the store's re-baseline points, once read
}

func (tf *trendFlags) register(fs *flag.FlagSet, e *cli.Env) {
	fs.StringVar(&tf.pattern, "benchmark", "", "benchmark name `PATTERN`: a glob matched segment by segment from the left, e.g. 'add' (every add benchmark), 'add/dtype=fp32' (every fp32 one), 'add/dtype=fp32/n=16M/mode=cold' (one); the suite may lead, as the table prints it ('elementwise/add'); '*' means every benchmark")
	fs.StringVar(&tf.suite, "suite", "", "only this `SUITE`")
	fs.StringVar(&tf.since, "since", "90d", "only runs that started within this `age` (90d, 2w, 36h; 0 = all)")
	fs.StringVar(&tf.branch, "branch", e.GetenvOr(compare.Lookup(check.SetBranch).Env, check.DefaultBranch),
		envUsage("only baseline runs of this `BRANCH` (never pull-request runs); '' = every run", check.SetBranch))
	fs.StringVar(&tf.testbed, "testbed", "", "only runs on this testbed `LABEL`")
	fs.StringVar(&tf.repo, "repo", e.Getenv("GITHUB_REPOSITORY"), "only runs of this `owner/name` (env GITHUB_REPOSITORY; '' = any)")
	def := trend.DefaultOptions()
	fs.Float64Var(&tf.threshold, "step-threshold", 100*def.Threshold, "smallest change of the median that is a step, in `percent`")
	fs.Float64Var(&tf.maxP, "step-p", def.MaxP, "largest t-test `p-value` of a step (E-divisive means with Otava's t-test)")
}

// query validates the flags (trend.Selection) and builds the trend query.
func (tf *trendFlags) query(now time.Time) (model.TrendQuery, trend.Options, error) {
	q, opt, err := trend.Selection{Pattern: tf.pattern, Suite: tf.suite, Branch: tf.branch, Testbed: tf.testbed,
		Repo: tf.repo, ThresholdPercent: tf.threshold, MaxP: tf.maxP}.Query()
	var se *trend.SelectionError
	if errors.As(err, &se) {
		return q, opt, cli.UsageErrorf("--%s: %s", se.Setting, se.Msg)
	}
	if q.Since, err = cli.AgeCutoff("since", tf.since, now); err != nil {
		return model.TrendQuery{}, opt, err
	}
	return q, opt, nil
}

// read queries the history store sf for the series the flags select, as of
// now, and returns them with the step options.
func (tf *trendFlags) read(ctx context.Context, sf storeFlags) ([]model.TrendSeries, trend.Options, error) {
	q, opt, err := tf.query(time.Now())
	if err != nil {
		return nil, opt, err
	}
	st, err := openStore(ctx, sf)
	if err != nil {
		return nil, opt, err
	}
	defer st.Close()
	var series []model.TrendSeries
	series, tf.resets, err = trend.ReadWithResets(ctx, st, q)
	if err == nil && len(series) == 0 {
		return nil, opt, cli.UsageErrorf("--benchmark: nothing matches %q (try the name as trend --benchmark '*' lists it, or --since 0 for older runs)", tf.pattern)
	}
	return series, opt, err
}

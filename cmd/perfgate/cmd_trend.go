package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"path"
	"strings"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/trend"
)

func init() {
	register(&command{
		Name:    "trend",
		Summary: "show a benchmark's history run by run, with the step changes in it",
		Run:     runTrend,
	})
}

// trendFlags are trend's flags.
type trendFlags struct {
	pattern, suite, since, branch, testbed, repo, format string
	threshold, maxP                                      float64 // threshold in percent
	changes                                              bool
}

func (tf *trendFlags) register(fs *flag.FlagSet, e *env) {
	fs.StringVar(&tf.pattern, "benchmark", "", "benchmark name `PATTERN`: a glob matched segment by segment from the left, e.g. 'add' or 'add/*' (every add benchmark), 'add/fp32/n=1M'; '*' means every benchmark")
	fs.StringVar(&tf.suite, "suite", "", "only this `SUITE`")
	fs.StringVar(&tf.since, "since", "90d", "only runs that started within this `age` (90d, 2w, 36h; 0 = all)")
	fs.StringVar(&tf.branch, "branch", envDefault(e, "PERFGATE_BASELINE_BRANCH", "main"),
		"only baseline runs of this `BRANCH` (never pull-request runs); '' = every run (env PERFGATE_BASELINE_BRANCH)")
	fs.StringVar(&tf.testbed, "testbed", "", "only runs on this testbed `LABEL`")
	fs.StringVar(&tf.repo, "repo", e.Getenv("GITHUB_REPOSITORY"), "only runs of this `owner/name` (env GITHUB_REPOSITORY; '' = any)")
	fs.StringVar(&tf.format, "format", "table", "output format: table, csv, json")
	def := trend.DefaultOptions()
	fs.Float64Var(&tf.threshold, "step-threshold", 100*def.Threshold, "smallest change of the median that is a step, in `percent`")
	fs.Float64Var(&tf.maxP, "step-p", def.MaxP, "largest t-test `p-value` of a step (E-divisive means with Otava's t-test)")
	fs.BoolVar(&tf.changes, "changes", false, "list only the steps (change points), newest first, instead of every run")
}

// query validates the flags and builds the trend query.
func (tf *trendFlags) query(now time.Time) (model.TrendQuery, trend.Options, error) {
	var opt trend.Options
	switch {
	case tf.pattern == "":
		return model.TrendQuery{}, opt, usageError("--benchmark: name the benchmark(s), e.g. --benchmark 'add/fp32/*' ('*' for all)")
	case tf.format != "table" && tf.format != "csv" && tf.format != "json":
		return model.TrendQuery{}, opt, usageError("--format: %q is not one of table, csv, json", tf.format)
	case !(tf.threshold > 0 && tf.threshold < 1000):
		return model.TrendQuery{}, opt, usageError("--step-threshold: must be a percentage above 0, got %v", tf.threshold)
	case !(tf.maxP > 0 && tf.maxP < 1):
		return model.TrendQuery{}, opt, usageError("--step-p: must be a p-value between 0 and 1, got %v", tf.maxP)
	}
	if _, err := path.Match(tf.pattern, ""); err != nil {
		return model.TrendQuery{}, opt, usageError("--benchmark: %q is not a valid pattern: %v", tf.pattern, err)
	}
	since, err := ageCutoff("since", tf.since, now)
	if err != nil {
		return model.TrendQuery{}, opt, err
	}
	pattern := tf.pattern
	q := model.TrendQuery{Repo: tf.repo, Suite: tf.suite, Pattern: pattern, Since: since,
		Branch: strings.TrimSpace(tf.branch), Testbed: tf.testbed}
	return q, trend.Options{Threshold: tf.threshold / 100, MaxP: tf.maxP}, nil
}

func runTrend(ctx context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "trend", "--benchmark PATTERN [--suite S] [--since 90d] [--branch main] [--testbed T] [--format table|csv|json] [--changes] [--step-threshold 5] [--step-p 0.001] [--store DIR | --db URL]")
	var (
		tf trendFlags
		sf storeFlags
	)
	tf.register(fs, e)
	sf.register(fs, e)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("trend: unexpected argument %q (the benchmark goes in --benchmark)", fs.Arg(0))
	}
	q, opt, err := tf.query(time.Now())
	if err != nil {
		return err
	}
	st, err := openStore(ctx, sf)
	if err != nil {
		return err
	}
	defer st.Close()
	series, err := st.Trend(ctx, q)
	if err != nil {
		return err
	}
	out := trend.Analyze(series, opt)
	if len(out) == 0 {
		fmt.Fprintf(e.Stderr, "perfgate: nothing matches --benchmark %q (names exclude the suite: use --suite for that)\n", tf.pattern)
	}
	// Buffered: a trend of 10,000 points is a few writes, not one per row.
	w := bufio.NewWriterSize(e.Stdout, 64<<10)
	err = writeTrend(w, tf, out)
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	return err
}

// writeTrend renders the series, or with --changes only their steps, in
// the chosen format.
func writeTrend(w io.Writer, tf trendFlags, out []trend.Series) error {
	if tf.changes {
		cs := trend.Changes(out)
		switch tf.format {
		case "csv":
			return trend.ChangesCSV(w, cs)
		case "json":
			return trend.ChangesJSON(w, cs)
		}
		return trend.ChangesTable(w, cs)
	}
	switch tf.format {
	case "csv":
		return trend.CSV(w, out)
	case "json":
		return trend.JSON(w, out)
	}
	return trend.Table(w, out)
}

package main

import (
	"bufio"
	"context"
	"slices"
	"strings"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/tracker/report"
	"github.com/perfgate/perfgate/tracker/trend"
)

func init() {
	commands.Register(&cli.Command{Name: "trend", Run: runTrend})
}

func runTrend(ctx context.Context, args []string, e *cli.Env) error {
	fs := cli.NewFlagSet(e, "trend", "--benchmark PATTERN [--suite S] [--since 90d|12w|6mo] [--branch main] [--testbed T] [--format table|csv|json|markdown|latex] [--changes] [--step-threshold 5] [--step-p 0.001] [--store DIR | --db URL]")
	var (
		tf      trendFlags
		sf      storeFlags
		format  string
		changes bool
	)
	tf.register(fs, e)
	fs.StringVar(&format, "format", "table", "output format: table, csv, json, markdown, latex (latex: the steps only)")
	fs.BoolVar(&changes, "changes", false, "list only the steps (change points), newest first, instead of every run")
	sf.register(fs, e)
	sf.existing = true // reads or deletes history only: a mistyped --store is refused
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.UsageErrorf("trend: unexpected argument %q (the benchmark goes in --benchmark)", fs.Arg(0))
	}
	if !slices.Contains(report.TrendFormats, format) {
		return cli.UsageErrorf("--format: %q is not one of %s", format, strings.Join(report.TrendFormats, ", "))
	}
	series, opt, err := tf.read(ctx, sf)
	if err != nil {
		return err
	}
	out := trend.Analyze(series, opt)
	trend.MarkResets(out, tf.resets, tf.repo)
	// Buffered: a trend of 10,000 points is a few writes, not one per row.
	w := bufio.NewWriterSize(e.Stdout, 64<<10)
	err = report.RenderTrend(w, format, changes, out)
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	return err
}

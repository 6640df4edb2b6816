package main

import (
	"bufio"
	"context"
	"io"
	"slices"

	"github.com/perfgate/perfgate/tracker/report"
	"github.com/perfgate/perfgate/tracker/trend"
)

func init() {
	register(&command{Name: "trend", Run: runTrend})
}

func runTrend(ctx context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "trend", "--benchmark PATTERN [--suite S] [--since 90d|12w|6mo] [--branch main] [--testbed T] [--format table|csv|json|markdown|latex] [--changes] [--step-threshold 5] [--step-p 0.001] [--store DIR | --db URL]")
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
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("trend: unexpected argument %q (the benchmark goes in --benchmark)", fs.Arg(0))
	}
	if !slices.Contains([]string{"table", "csv", "json", "markdown", "latex"}, format) {
		return usageError("--format: %q is not one of table, csv, json, markdown, latex", format)
	}
	series, opt, err := tf.read(ctx, sf)
	if err != nil {
		return err
	}
	out := trend.Analyze(series, opt)
	// Buffered: a trend of 10,000 points is a few writes, not one per row.
	w := bufio.NewWriterSize(e.Stdout, 64<<10)
	err = writeTrend(w, format, changes, out)
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	return err
}

// writeTrend renders the series, or with changes only their steps, in
// format.
func writeTrend(w io.Writer, format string, changes bool, out []trend.Series) error {
	if changes {
		cs := trend.Changes(out)
		switch format {
		case "csv":
			return trend.ChangesCSV(w, cs)
		case "json":
			return trend.ChangesJSON(w, cs)
		case "markdown":
			_, err := io.WriteString(w, report.ChangesTableMarkdown(cs, ""))
			return err
		case "latex":
			return report.TrendLaTeX(w, out)
		}
		return trend.ChangesTable(w, cs)
	}
	switch format {
	case "markdown":
		return report.TrendMarkdown(w, out)
	case "latex":
		return report.TrendLaTeX(w, out)
	case "csv":
		return trend.CSV(w, out)
	case "json":
		return trend.JSON(w, out)
	}
	return trend.Table(w, out)
}

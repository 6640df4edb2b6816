package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/tracker/chart"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/trend"
)

func init() {
	commands.Register(&cli.Command{Name: "chart", Run: runChart})
}

// registerChartOutput adds --out, --format, --width and --height to fs.
func registerChartOutput(fs interface {
	StringVar(*string, string, string, string)
	Float64Var(*float64, string, float64, string)
}, o *chart.Output) {
	fs.StringVar(&o.Path, "out", "", "the image `FILE` to write (.png or .svg)")
	fs.StringVar(&o.Format, "format", "", "png or svg (default: from the --out extension)")
	fs.Float64Var(&o.Width, "width", 8, "image width in `inches` (PNG: 96 pixels an inch)")
	fs.Float64Var(&o.Height, "height", 0, "image height in `inches` (0: 4 for a trend, fitted to the benchmarks for a comparison)")
}

// writeChart writes p as o says (fit: the chart's own height; chart.Output.WriteFile).
func writeChart(e *cli.Env, o chart.Output, p *plot.Plot, fit vg.Length) error {
	err := o.WriteFile(p, fit)
	if err == nil {
		fmt.Fprintf(e.Stderr, "perfgate: wrote %s\n", o.Path)
	}
	return err
}

func runChart(ctx context.Context, args []string, e *cli.Env) error {
	const usage = "usage: perfgate chart trend --benchmark PATTERN --out FILE.png|.svg [trend's flags]\n" +
		"       perfgate chart compare --report REPORT.json --out FILE.png|.svg"
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") { // both charts' flags
		fmt.Fprintf(e.Stdout, "%s\n\n", usage)
		runChartTrend(ctx, []string{"-help"}, e)
		fmt.Fprintln(e.Stdout)
		return runChartCompare([]string{"-help"}, e)
	}
	if len(args) == 0 || (args[0] != "trend" && args[0] != "compare") {
		fmt.Fprintln(e.Stderr, usage)
		if len(args) > 0 && strings.HasPrefix(args[0], "-") {
			return cli.UsageErrorf("chart: flag %s before what to draw: name trend or compare first", args[0])
		}
		return cli.UsageErrorf("chart: name what to draw: trend or compare")
	}
	if args[0] == "trend" {
		return runChartTrend(ctx, args[1:], e)
	}
	return runChartCompare(args[1:], e)
}

func runChartTrend(ctx context.Context, args []string, e *cli.Env) error {
	fs := cli.NewFlagSet(e, "chart trend", "--benchmark PATTERN --out FILE.png|.svg [--suite S] [--since 90d] [--branch main] [--testbed T] [--store DIR | --db URL]")
	var (
		tf trendFlags
		sf storeFlags
		o  chart.Output
	)
	tf.register(fs, e)
	sf.register(fs, e)
	sf.existing = true // reads or deletes history only: a mistyped --store is refused
	registerChartOutput(fs, &o)
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.UsageErrorf("chart trend: unexpected argument %q", fs.Arg(0))
	}
	if err := o.Check(); err != nil {
		return err
	}
	series, opt, err := tf.read(ctx, sf)
	if err != nil {
		return err
	}
	analyzed := trend.Analyze(series, opt)
	p, err := chart.Trend(analyzed, chart.TrendTitle(tf.pattern, analyzed))
	var tm *chart.TooManyError
	if errors.As(err, &tm) {
		return cli.UsageErrorf("--benchmark: %v", err)
	} else if err != nil {
		return err
	}
	return writeChart(e, o, p, chart.TrendHeight)
}

func runChartCompare(args []string, e *cli.Env) error {
	fs := cli.NewFlagSet(e, "chart compare", "--report REPORT.json --out FILE.png|.svg")
	var (
		o      chart.Output
		report string
		title  string
	)
	fs.StringVar(&report, "report", "", "the `FILE` written by compare or check --format json")
	fs.StringVar(&title, "title", "change per benchmark", "the chart's `title`")
	registerChartOutput(fs, &o)
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return cli.UsageErrorf("chart compare: unexpected argument %q (the report goes in --report)", fs.Arg(0))
	case report == "":
		return cli.UsageErrorf("--report: name the JSON report of compare or check --format json")
	}
	if err := o.Check(); err != nil {
		return err
	}
	data, err := os.ReadFile(report)
	if err != nil {
		return &model.InputError{File: report, Msg: err.Error()}
	}
	bars, threshold, err := chart.ParseComparison(report, data)
	if err != nil {
		return err
	}
	p, h, err := chart.Comparison(bars, threshold, title)
	if err != nil {
		return err
	}
	return writeChart(e, o, p, h)
}

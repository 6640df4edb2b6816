package main

import (
	"context"
	"io"
	"strings"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/tracker/chart"
	"github.com/perfgate/perfgate/tracker/report"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

func init() {
	commands.Register(&cli.Command{Name: "summary", Run: runSummary})
}

func runSummary(_ context.Context, args []string, e *cli.Env) error {
	fs := cli.NewFlagSet(e, "summary", "[--format markdown|csv|latex] [--out SUMMARY.md] [--charts DIR] [--speedups torch] RESULTS.json...")
	out := fs.String("out", "", "write to this `FILE` instead of stdout")
	format := fs.String("format", report.FormatMarkdown, "output format: "+strings.Join(report.SummaryFormats, ", "))
	charts := fs.String("charts", "", "also write each suite's charts, median time and speedup by size (SVG), into this `DIR`")
	speedups := fs.String("speedups", "", "instead of the summary, one Markdown table of the speedups over the in-run references speedup_vs_`PREFIX`* with their categories, cold and batch (torch: those of run --reference torch; docs/gpu.md's table of ratios)")
	files, err := cli.ParseFlagsAndFiles(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return cli.UsageErrorf("summary: name at least one results file")
	}
	if err := cli.CheckChoice("--format", *format, report.SummaryFormats); err != nil {
		return err
	}
	if *speedups != "" && (*format != report.FormatMarkdown || *charts != "") {
		return cli.UsageErrorf("summary: --speedups writes one Markdown table: not with --format csv or latex, nor --charts")
	}
	runs, err := resultsjson.LoadAll(files)
	if err != nil {
		return err
	}
	if *speedups != "" {
		return cli.WriteOutput(e, *out, func(w io.Writer) error { return report.WriteSpeedups(w, runs, *speedups) })
	}
	if *charts != "" {
		if err := cli.WriteFiles(e, *charts)(chart.RunCharts(runs, "svg")); err != nil {
			return err
		}
	}
	return cli.WriteOutput(e, *out, func(w io.Writer) error { return report.WriteRunSummary(w, runs, *format) })
}

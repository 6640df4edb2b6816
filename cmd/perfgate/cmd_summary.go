package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/report"
)

func init() {
	commands.Register(&cli.Command{Name: "summary", Run: runSummary})
}

func runSummary(_ context.Context, args []string, e *cli.Env) error {
	fs := cli.NewFlagSet(e, "summary", "[--format markdown|csv|latex] [--out SUMMARY.md] RESULTS.json...")
	out := fs.String("out", "", "write to this `FILE` instead of stdout")
	format := fs.String("format", report.FormatMarkdown, "output format: "+strings.Join(report.SummaryFormats, ", "))
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
	runs, err := model.LoadAll(files)
	if err != nil {
		return err
	}
	write := func(w io.Writer) error { return report.WriteRunSummary(w, runs, *format) }
	if *out == "" {
		return write(e.Stdout)
	}
	if err := model.WriteFileAtomicFunc(*out, write); err != nil {
		return &model.InfraError{Op: "write " + *out, Err: err}
	}
	fmt.Fprintf(e.Stderr, "perfgate: wrote %s\n", *out)
	return nil
}

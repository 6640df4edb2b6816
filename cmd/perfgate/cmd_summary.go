package main

import (
	"context"
	"io"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/report"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

func init() {
	commands.Register(&cli.Command{Name: "summary", Run: runSummary})
}

func runSummary(_ context.Context, args []string, e *cli.Env) error {
	fs := cli.NewFlagSet(e, "summary", "[--out SUMMARY.md] RESULTS.json...")
	out := fs.String("out", "", "write to this `FILE` instead of stdout")
	files, err := cli.ParseFlagsAndFiles(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return cli.UsageErrorf("summary: name at least one results file")
	}
	runs := make([]*model.Results, 0, len(files))
	for _, f := range files {
		r, err := resultsjson.Load(f)
		if err != nil {
			return err
		}
		runs = append(runs, r)
	}
	md := report.RunSummary(runs)
	return cli.WriteOutput(e, *out, func(w io.Writer) error { _, err := io.WriteString(w, md); return err })
}

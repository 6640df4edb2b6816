package main

import (
	"context"
	"slices"
	"strings"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/internal/memlimit"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/ingest"
	"github.com/perfgate/perfgate/tracker/report"
)

func init() {
	commands.Register(&cli.Command{Name: "compare", Run: runCompare})
}

// compareUsage is compare's usage: benchstat's OLD NEW, or sides of several files.
const compareUsage = `OLD NEW [flags]
       perfgate compare --baseline FILE [--baseline FILE ...] --candidate FILE [--candidate FILE ...] [flags]

Each file is one run: a results file, or another tool's output (go test -bench text, any format of
ingest) told by its content unless --input-format names it.`

func runCompare(ctx context.Context, args []string, e *cli.Env) error {
	fs := cli.NewFlagSet(e, "compare", compareUsage)
	var baseFiles, candFiles cli.Files
	fs.Var(&baseFiles, "baseline", "a baseline `file`; repeat to pool several runs")
	fs.Var(&candFiles, "candidate", "a candidate `file`; repeat to pool several runs")
	var in ingest.Options
	inFormat := fs.String("input-format", "", "the `format` of every input file: "+strings.Join(ingest.Formats, ", ")+" (default: told by each file's content)")
	fs.StringVar(&in.Metric, "metric", "", "go test output: the `unit` whose values are the samples (default ns/op), e.g. B/op or a b.ReportMetric unit")
	fs.StringVar(&in.Unit, "unit", "", "json-samples input that names no unit: its `unit`, e.g. ms")
	var cf compareFlags
	cf.register(fs, e)
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	baseFiles, candFiles, err := cli.OldNew(fs.Args(), baseFiles, candFiles)
	if err != nil {
		return err
	}
	if slices.Contains(ingest.Formats, cf.format) {
		return cli.UsageErrorf("--format: %s is an input format; write --input-format %s (--format is the report's: %s)", cf.format, cf.format, strings.Join(report.Formats, ", "))
	} else if *inFormat != "" {
		if err := cli.CheckChoice("--input-format", *inFormat, ingest.Formats); err != nil {
			return err
		}
	}
	opt, err := cf.options()
	if err != nil {
		return err
	}
	opt.SortInPlace = true // the loaded runs are ours and read no more
	baseIn, candIn, err := ingest.NewSides(baseFiles, candFiles, *inFormat)
	if err != nil {
		return err
	}
	// Sized for results files only: from the size of go test text it kept the collector running.
	heap := memlimit.New(e.Getenv)
	heap.Set(memlimit.FileBytes(append(baseIn.Results(), candIn.Results()...)))
	defer heap.Restore()
	base, cand, err := ingest.LoadSides(baseIn, candIn, in)
	if err != nil {
		return err
	}
	c, err := compare.Compare(base, cand, opt)
	if err != nil {
		return cli.UsageErrorf("%v", err)
	}
	if err := report.Render(e.Stdout, c, nil, cf.format); err != nil {
		return err
	}
	return cli.GateErr(c.Gate())
}

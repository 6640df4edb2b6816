package main

import (
	"context"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/report"
)

func init() {
	register(&command{Name: "compare", Run: runCompare})
}

func runCompare(ctx context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "compare", "--baseline FILE [--baseline FILE ...] --candidate FILE [--candidate FILE ...] [flags]")
	var baseFiles, candFiles resultFiles
	fs.Var(&baseFiles, "baseline", "a baseline results `file`; repeat to pool several runs")
	fs.Var(&candFiles, "candidate", "a candidate results `file`; repeat to pool several runs")
	var cf compareFlags
	cf.register(fs, e)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return usageError("unexpected argument %q (results files go after --baseline or --candidate)", fs.Arg(0))
	case len(baseFiles) == 0:
		return usageError("--baseline: at least one baseline results file is required")
	case len(candFiles) == 0:
		return usageError("--candidate: at least one candidate results file is required")
	}
	opt, err := cf.options()
	if err != nil {
		return err
	}
	opt.SortInPlace = true // the loaded runs are ours and read no more
	defer limitHeap(e, append(append([]string(nil), baseFiles...), candFiles...))()
	base, err := loadSide(baseFiles)
	if err != nil {
		return err
	}
	cand, err := loadSide(candFiles)
	if err != nil {
		return err
	}
	c, err := compare.Compare(base, cand, opt)
	if err != nil {
		return usageError("%v", err)
	}
	if err := report.Render(e.Stdout, c, nil, cf.format); err != nil {
		return err
	}
	if c.Failed() {
		return errRegression
	}
	return nil
}

// loadSide loads the results files of one side (model.LoadAll), each run
// once (model.DistinctRuns).
func loadSide(files []string) ([]*model.Results, error) {
	runs, err := model.LoadAll(files)
	if err != nil {
		return nil, err
	}
	return runs, model.DistinctRuns(files, runs)
}

package main

import (
	"context"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/internal/memlimit"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/report"
)

func init() {
	commands.Register(&cli.Command{Name: "compare", Run: runCompare})
}

func runCompare(ctx context.Context, args []string, e *cli.Env) error {
	fs := cli.NewFlagSet(e, "compare", "--baseline FILE [--baseline FILE ...] --candidate FILE [--candidate FILE ...] [flags]")
	var baseFiles, candFiles cli.Files
	fs.Var(&baseFiles, "baseline", "a baseline results `file`; repeat to pool several runs")
	fs.Var(&candFiles, "candidate", "a candidate results `file`; repeat to pool several runs")
	var cf compareFlags
	cf.register(fs, e)
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return cli.UsageErrorf("unexpected argument %q (results files go after --baseline or --candidate)", fs.Arg(0))
	case len(baseFiles) == 0:
		return cli.UsageErrorf("--baseline: at least one baseline results file is required")
	case len(candFiles) == 0:
		return cli.UsageErrorf("--candidate: at least one candidate results file is required")
	}
	opt, err := cf.options()
	if err != nil {
		return err
	}
	opt.SortInPlace = true // the loaded runs are ours and read no more
	heap := memlimit.New(e.Getenv)
	heap.Set(memlimit.FileBytes(append(append([]string(nil), baseFiles...), candFiles...)))
	defer heap.Restore()
	base, cand, err := loadSides(baseFiles, candFiles)
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
	if c.Failed() {
		return cli.ErrRegression
	}
	return nil
}

// loadSides loads both sides at once: each is one file to parse (12% of
// the CPU of a 10,000-benchmark compare), and both are needed. A baseline
// error is reported before a candidate error, as if loaded in turn.
func loadSides(baseFiles, candFiles []string) (base, cand []*model.Results, err error) {
	var candErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		cand, candErr = loadSide(candFiles)
	}()
	base, err = loadSide(baseFiles)
	<-done
	if err != nil {
		return nil, nil, err
	}
	if candErr != nil {
		return nil, nil, candErr
	}
	return base, cand, nil
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

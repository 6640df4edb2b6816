package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
)

func init() {
	register(&command{
		Name:    "compare",
		Summary: "compare candidate results files against baseline results files",
		Run:     runCompare,
	})
}

// resultFiles is a repeatable flag collecting results file names.
type resultFiles []string

func (l *resultFiles) String() string { return strings.Join(*l, ",") }

func (l *resultFiles) Set(v string) error {
	if v == "" {
		return usageError("empty file name")
	}
	*l = append(*l, v)
	return nil
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
		return usageError("-baseline: at least one baseline results file is required")
	case len(candFiles) == 0:
		return usageError("-candidate: at least one candidate results file is required")
	}
	opt, err := cf.options()
	if err != nil {
		return err
	}
	base, err := loadResultFiles(baseFiles)
	if err != nil {
		return err
	}
	cand, err := loadResultFiles(candFiles)
	if err != nil {
		return err
	}
	c, err := compare.Compare(base, cand, opt)
	if err != nil {
		return usageError("%v", err)
	}
	if err := renderComparison(e.Stdout, c, cf.format); err != nil {
		return err
	}
	if c.Failed() {
		return errRegression
	}
	return nil
}

// loadResultFiles loads and validates results files; the first bad one is an
// *model.InputError naming the file and the JSON path.
func loadResultFiles(files []string) ([]*model.Results, error) {
	out := make([]*model.Results, 0, len(files))
	for _, f := range files {
		r, err := model.Load(f)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, distinctRuns(files, out)
}

// distinctRuns rejects a run given twice on one side (two files with one
// run id, or one file named twice): pooled twice, its samples would count
// twice and the p-values would overstate the evidence.
func distinctRuns(files []string, runs []*model.Results) error {
	first := make(map[string]int, len(runs))
	for i, r := range runs {
		if j, seen := first[r.Run.ID]; seen {
			return &model.InputError{File: files[i], Path: "$.run.id",
				Msg: fmt.Sprintf("run %s is also in %s: a run pooled twice would count its samples twice", r.Run.ID, files[j])}
		}
		first[r.Run.ID] = i
	}
	return nil
}

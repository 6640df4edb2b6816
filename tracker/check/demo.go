package check

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
)

// DemoBaselineRuns is how many history runs the demo pools, check's default.
const DemoBaselineRuns = 3

// Demo is what 'perfgate demo' shows: it records the runs of the history
// files, in order, into st (an empty store the caller throws away
// afterwards) and checks the run of the file pr against the latest
// DemoBaselineRuns comparable main-branch ones, as 'perfgate check' would.
// What it does is narrated on w, so the report can go elsewhere.
func Demo(ctx context.Context, st Store, w io.Writer, history []string, pr string) (*compare.Comparison, error) {
	runs, err := model.LoadAll(append(history[:len(history):len(history)], pr))
	if err != nil {
		return nil, err
	}
	hist, cand := runs[:len(history)], runs[len(history):]
	if err := RecordRuns(ctx, io.Discard, st, history, hist); err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "perfgate demo: recorded %d main-branch runs from %s into a temporary store; checking %s (PR #%d) against the latest %d comparable ones.\n"+
		"The report below is what the pull request's comment would say; exit status 1 means the check fails on a regression.\n\n",
		len(hist), filepath.Dir(history[0]), pr, cand[0].Run.PR, DemoBaselineRuns)
	opt := compare.DefaultOptions()
	b, err := Baseline(ctx, st, cand, Query{Branch: "main", Jobs: DemoBaselineRuns, History: opt.HistoryJobs})
	if err != nil {
		return nil, err
	}
	return Judge(b, cand, DemoBaselineRuns, opt)
}

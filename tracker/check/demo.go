package check

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// DemoFiles lists the example data in dir: the main-branch history runs
// (history/*.json, in name order) and the pull request's run (pr.json). A
// directory without both is an input error.
func DemoFiles(dir string) (history []string, pr string, err error) {
	history, err = filepath.Glob(filepath.Join(dir, "history", "*.json"))
	if err != nil {
		return nil, "", &model.InputError{File: dir, Msg: "cannot list the example history", Err: err}
	}
	pr = filepath.Join(dir, "pr.json")
	if _, serr := os.Stat(pr); len(history) == 0 || serr != nil {
		return nil, "", &model.InputError{File: dir, Msg: fmt.Sprintf("no history/*.json and pr.json here; run the demo from the repository root, or name the directory with %s", model.Flag("examples"))}
	}
	sort.Strings(history)
	return history, pr, nil
}

// Demo is what 'perfgate demo' shows: it records the runs of the history
// files, in order, into st (an empty store the caller throws away
// afterwards) and checks the run of the file pr against the latest
// DefaultJobs comparable main-branch ones, as 'perfgate check' would.
// What it does is narrated on w, so the report can go elsewhere.
func Demo(ctx context.Context, st Store, w io.Writer, history []string, pr string) (*compare.Comparison, error) {
	runs, err := resultsjson.LoadAll(append(history[:len(history):len(history)], pr))
	if err != nil {
		return nil, err
	}
	hist, cand := runs[:len(history)], runs[len(history):]
	if err := RecordRuns(ctx, io.Discard, st, history, hist); err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "perfgate demo: recorded %d main-branch runs from %s into a temporary store; checking %s (PR #%d) against the latest %d comparable ones.\n"+
		"The report below is what the pull request's comment would say; exit status 1 means the check fails on a regression.\n\n",
		len(hist), filepath.Dir(history[0]), pr, cand[0].Run.PR, DefaultJobs)
	opt := compare.DefaultOptions()
	b, err := JudgeBaseline(ctx, st, cand, Query{Branch: DefaultBranch, Jobs: DefaultJobs, History: opt.HistoryJobs})
	if err != nil {
		return nil, err
	}
	return Judge(b, cand, DefaultJobs, opt)
}

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/action"
	"github.com/perfgate/perfgate/tracker/check"
	"github.com/perfgate/perfgate/tracker/model"
)

// skipUnchanged prepares the skip-unchanged-kernels input of a pull
// request whose suites run here: it writes the runs of the check's
// baseline query to a temporary folder and returns them, comma-separated,
// for runner.ConfigOptions.SkipUnchangedAgainst ("": measure everything),
// with a function that removes the folder. A baseline that cannot be read
// is a warning: everything is measured. Kernel and command suites are
// always measured, and the log says so.
func (a *actionRun) skipUnchanged(ctx context.Context) (against string, cleanup func()) {
	cleanup = func() {}
	if !a.o.SkipUnchanged || !a.plan.Skips() || len(a.o.ResultFiles) > 0 || a.cfg == nil {
		return "", cleanup
	}
	files, dir, err := a.writeSkipBaseline(ctx)
	if dir != "" {
		cleanup = func() { os.RemoveAll(dir) }
	}
	if err != nil {
		a.Annotate("warning", "", fmt.Sprintf("perfgate: skip-unchanged-kernels: every benchmark is measured: %v", err))
		return "", cleanup
	}
	hashes := len(runner.UnchangedKernels(files.runs))
	fmt.Fprintf(a.e.Stderr, "perfgate: skip-unchanged-kernels: %d benchmarks of %d baseline runs have a PTX hash; builtin suites skip those whose kernels compile to the same hash\n",
		hashes, len(files.runs))
	if hashes > 0 {
		against = strings.Join(files.paths, ",")
	}
	var measured []string
	for _, s := range a.cfg.Suites {
		if s.Builtin == nil && (a.o.Filter == nil || a.o.Filter.MatchString(s.Name)) {
			measured = append(measured, s.Name)
		}
	}
	if len(measured) > 0 {
		fmt.Fprintf(a.e.Stderr, "perfgate: skip-unchanged-kernels: suites %s are measured in full (only builtin suites skip unchanged kernels)\n",
			strings.Join(measured, ", "))
	}
	return against, cleanup
}

type skipFiles struct {
	runs  []*model.Results
	paths []string
}

// writeSkipBaseline reads the baseline this pull request is judged
// against and writes its runs, one results file each, under RUNNER_TEMP.
func (a *actionRun) writeSkipBaseline(ctx context.Context) (f skipFiles, dir string, err error) {
	cand, err := actionRunMeta(ctx, a.e)
	if err != nil {
		return f, "", err
	}
	st, err := openStore(ctx, storeFlags{dir: a.o.StoreDir, dbURL: a.o.DatabaseURL, timeout: a.o.DBTimeout})
	if err != nil {
		return f, "", err
	}
	defer st.Close()
	if f.runs, err = action.SkipBaseline(ctx, st, &cand,
		check.Query{Branch: a.plan.BaselineBranch, Testbed: a.o.BaselineTestbed, Jobs: a.o.BaselineRuns}, a.cfg); err != nil {
		return f, "", err
	}
	if dir, err = os.MkdirTemp(envDefault(a.e, "RUNNER_TEMP", ""), "perfgate-skip-"); err != nil {
		return f, "", err
	}
	for i, r := range f.runs {
		p := filepath.Join(dir, strconv.Itoa(i)+".json")
		if err := model.WriteFile(p, r); err != nil {
			return f, dir, err
		}
		f.paths = append(f.paths, p)
	}
	return f, dir, nil
}

package main

import (
	"context"
	"fmt"

	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/action"
	"github.com/perfgate/perfgate/tracker/check"
)

// skipUnchanged prepares the skip-unchanged-kernels input of a pull
// request whose suites run here: it writes the runs of the check's
// baseline query to a temporary folder (runner.WriteSkipBaseline) and
// returns them for runner.ConfigOptions.SkipUnchangedAgainst ("": measure
// everything), with a function that removes the folder. A baseline that
// cannot be read is a warning: everything is measured.
func (a *actionRun) skipUnchanged(ctx context.Context) (against string, cleanup func()) {
	cleanup = func() {}
	if !a.o.SkipUnchanged || !a.plan.Skips() || len(a.o.ResultFiles) > 0 || a.cfg == nil {
		return "", cleanup
	}
	against, cleanup, err := a.writeSkipBaseline(ctx)
	if err != nil {
		a.job.Annotate("warning", "", fmt.Sprintf("perfgate: skip-unchanged-kernels: every benchmark is measured: %v", err))
		return "", cleanup
	}
	return against, cleanup
}

// writeSkipBaseline reads the baseline this pull request is judged
// against and writes its runs under RUNNER_TEMP.
func (a *actionRun) writeSkipBaseline(ctx context.Context) (against string, cleanup func(), err error) {
	cleanup = func() {}
	cand, err := actionRunMeta(ctx, a.e)
	if err != nil {
		return "", cleanup, err
	}
	st, err := openStore(ctx, storeFlags{dir: a.o.StoreDir, dbURL: a.o.DatabaseURL, timeout: a.o.DBTimeout, warn: a.warnStore})
	if err != nil {
		return "", cleanup, err
	}
	defer st.Close()
	runs, err := action.SkipBaseline(ctx, st, &cand,
		check.Query{Branch: a.plan.BaselineBranch, Testbed: a.o.BaselineTestbed, Jobs: a.o.BaselineRuns}, a.cfg)
	if err != nil {
		return "", cleanup, err
	}
	return runner.WriteSkipBaseline(a.e.GetenvOr("RUNNER_TEMP", ""), runs, a.cfg, a.o.Filter, a.e.Stderr)
}

package main

import "context"

// preRun runs perfgate doctor's checks before the suites run, under the
// pre-run-checks input: each warning becomes a log annotation and a note in
// the report and the comment; under strict, a GPU another process uses,
// with clocks held down, partitioned by MIG or hot refuses the run (exit 3).
func (a *actionRun) preRun(ctx context.Context) error {
	warnings, err := newRunner(a.e).PreRun(ctx, a.o.PreRun)
	for _, w := range warnings {
		a.job.Annotate("warning", "perfgate pre-run check", w)
	}
	a.preRunNotes = warnings
	if err != nil {
		a.job.Annotate("error", "perfgate refused to measure", err.Error())
	}
	return err
}

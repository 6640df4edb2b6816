package main

import "context"

// preRun runs perfgate doctor's checks before the suites run, under the
// pre-run-checks input: each warning becomes a log annotation and a note in
// the report and the comment; under strict, a GPU another process uses,
// with clocks held down, partitioned by MIG or hot refuses the run (exit 3).
func (a *actionRun) preRun(ctx context.Context) error {
	warnings, err := newRunner(a.e).PreRun(ctx, a.o.PreRun)
	for _, w := range warnings {
		a.gha.WithFieldsMap(map[string]string{"title": "perfgate pre-run check"}).Warningf("%s", w)
	}
	a.preRunNotes = warnings
	if err != nil {
		a.gha.WithFieldsMap(map[string]string{"title": "perfgate refused to measure"}).Errorf("%v", err)
	}
	return err
}

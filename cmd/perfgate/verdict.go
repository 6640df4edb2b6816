package main

import (
	"fmt"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/confirm"
	"github.com/perfgate/perfgate/tracker/report"
)

// finishCheck prints the report (with the confirmation, nil: not re-run),
// notes on stderr when there was nothing to compare with, and turns a
// regression into exit code 1. Baseline runs came from branch on testbed.
func finishCheck(e *env, c *compare.Comparison, conf *confirm.Confirmation, format, branch, testbed string) error {
	if err := report.Render(e.Stdout, c, conf, format); err != nil {
		return err
	}
	switch {
	case len(c.Baseline) == 0 && len(c.Incomparable) == 0:
		fmt.Fprintf(e.Stderr, "perfgate: no baseline yet: the history holds no %s run on testbed %s, so every benchmark is insufficient; record %s runs first ('perfgate record FILE', or 'perfgate check --record' on %s)\n",
			branch, orNone(testbed), branch, branch)
	case len(c.Baseline) == 0:
		fmt.Fprintf(e.Stderr, "perfgate: no comparable baseline: %d %s run(s) passed over (%s); nothing was judged.\n",
			len(c.Incomparable), branch, c.Incomparable[0].Reason)
	}
	if c.Failed() {
		return errRegression
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// shortSHA abbreviates a commit hash to 12 characters.
func shortSHA(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

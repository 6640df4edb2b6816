package main

import (
	"errors"
	"fmt"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/confirm"
	"github.com/perfgate/perfgate/tracker/report"
)

// finishCheck prints the report (with the confirmation, nil: not re-run),
// notes on stderr when there was nothing to compare with, and turns a
// regression into exit code 1. Baseline runs came from branch on testbed.
func finishCheck(e *cli.Env, c *compare.Comparison, conf *confirm.Confirmation, format, branch, testbed string) error {
	if err := report.Render(e.Stdout, c, conf, format); err != nil {
		return err
	}
	if note := report.BaselineNote(c, branch, testbed); note != "" {
		fmt.Fprintf(e.Stderr, "perfgate: %s\n", note)
	}
	return gateErr(c)
}

// gateErr is the exit of a comparison whose report is printed: nil when it
// passes the gate (compare.Comparison.Gate), cli.ErrRegression on a
// regression, exit 1 saying why when inconclusive results fail it
// (--inconclusive fail).
func gateErr(c *compare.Comparison) error {
	switch outcome, fails := c.Gate(); {
	case !fails:
		return nil
	case outcome == compare.OutcomeInconclusive:
		return &cli.ExitError{Code: cli.ExitRegression, Err: errors.New("the results are inconclusive (the report says which) and --inconclusive is fail")}
	}
	return cli.ErrRegression
}

package main

import (
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
	return cli.GateErr(c.Gate())
}

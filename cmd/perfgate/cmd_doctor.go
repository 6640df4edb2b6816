package main

import (
	"context"
	"fmt"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/kernels"
)

func init() {
	commands.Register(&cli.Command{Name: "doctor", Run: runDoctor})
}

func runDoctor(ctx context.Context, args []string, e *cli.Env) error {
	fs := cli.NewFlagSet(e, "doctor", "[--strict]")
	strict := fs.Bool("strict", false, "exit 3 (the environment is not fit to measure in, as run --strict refuses) when there are warnings")
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.UsageErrorf("doctor: unexpected argument %q", fs.Arg(0))
	}
	fmt.Fprintf(e.Stdout, "perfgate %s (%s)\n", buildVersion(), kernels.Build)
	rep, err := newRunner(e).Doctor(ctx)
	if err != nil {
		return err
	}
	rep.Write(e.Stdout)
	if *strict && len(rep.Warnings) > 0 {
		return &cli.ExitError{Code: cli.ExitInfra} // the machine's fault, not a regression (1)
	}
	return nil
}

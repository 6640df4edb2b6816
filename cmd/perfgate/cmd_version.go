package main

import (
	"context"
	"fmt"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/kernels"
)

func init() {
	commands.Register(&cli.Command{Name: "version", Run: runVersion})
}

func runVersion(ctx context.Context, args []string, e *cli.Env) error {
	fs := cli.NewFlagSet(e, "version", "")
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.UsageErrorf("version: unexpected argument %q", fs.Arg(0))
	}
	fmt.Fprintf(e.Stdout, "perfgate %s (%s)\n", buildVersion(), kernels.Build)
	return nil
}

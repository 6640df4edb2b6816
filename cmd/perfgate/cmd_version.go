package main

import (
	"context"
	"fmt"
)

func init() {
	register(&command{Name: "version", Run: runVersion})
}

func runVersion(ctx context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "version", "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("version: unexpected argument %q", fs.Arg(0))
	}
	fmt.Fprintf(e.Stdout, "perfgate %s (%s)\n", buildVersion(), cudaStatus())
	return nil
}

package main

import (
	"context"
	"fmt"
)

func init() {
	register(&command{Name: "doctor", Run: runDoctor})
}

func runDoctor(ctx context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "doctor", "[--strict]")
	strict := fs.Bool("strict", false, "exit 1 when there are warnings")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("doctor: unexpected argument %q", fs.Arg(0))
	}
	fmt.Fprintf(e.Stdout, "perfgate %s (%s)\n", buildVersion(), cudaStatus())
	rep, err := newRunner(e).Doctor(ctx)
	if err != nil {
		return err
	}
	rep.Write(e.Stdout)
	if *strict && len(rep.Warnings) > 0 {
		return errRegression // --strict: warnings exit 1
	}
	return nil
}

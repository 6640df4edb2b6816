package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/perfgate/perfgate/kernels"
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
	return writeDoctorReport(e.Stdout, rep, *strict)
}

// writeDoctorReport prints the environment, one key a line in key order, and
// the warnings. With strict, warnings make the command exit 1.
func writeDoctorReport(w io.Writer, rep kernels.Report, strict bool) error {
	for _, k := range slices.Sorted(maps.Keys(rep.Env)) {
		fmt.Fprintf(w, "  %-20s %s\n", k, rep.Env[k])
	}
	if len(rep.Warnings) == 0 {
		fmt.Fprintln(w, "no warnings: this GPU is set up for stable measurements")
		return nil
	}
	fmt.Fprintf(w, "%d warnings:\n", len(rep.Warnings))
	for _, warning := range rep.Warnings {
		fmt.Fprintf(w, "  - %s\n", warning)
	}
	if strict {
		return errRegression
	}
	return nil
}

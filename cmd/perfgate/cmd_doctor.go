package main

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/perfgate/perfgate/kernels"
)

func init() {
	register(&command{Name: "doctor", Summary: "check the GPU, driver, CUDA and NVRTC setup for reliable measurements", Run: runDoctor})
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
	s, err := kernels.Open(ctx)
	if errors.Is(err, kernels.ErrNoCUDA) {
		return &exitError{code: exitInfra, err: err}
	}
	if err != nil {
		return err
	}
	defer s.Close()
	rep, err := s.Doctor()
	if err != nil {
		return err
	}
	rep.Env[kernels.EnvPerfgate] = buildVersion()
	keys := make([]string, 0, len(rep.Env))
	for k := range rep.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(e.Stdout, "  %-20s %s\n", k, rep.Env[k])
	}
	if len(rep.Warnings) == 0 {
		fmt.Fprintln(e.Stdout, "no warnings: this GPU is set up for stable measurements")
		return nil
	}
	fmt.Fprintf(e.Stdout, "%d warnings:\n", len(rep.Warnings))
	for _, w := range rep.Warnings {
		fmt.Fprintf(e.Stdout, "  - %s\n", w)
	}
	if *strict {
		return &exitError{code: exitRegression}
	}
	return nil
}

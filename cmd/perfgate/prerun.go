package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/perfgate/perfgate/kernels"
)

// Pre-run check policies: the action's pre-run-checks input; run --strict
// is preRunStrict.
const (
	preRunOff    = "off"
	preRunWarn   = "warn"
	preRunStrict = "strict"
)

var preRunPolicies = []string{preRunWarn, preRunStrict, preRunOff}

// judgePreRun turns perfgate doctor's findings into the warnings to show
// and, under the strict policy with a blocking finding (another process on
// the GPU, clocks held down, MIG, a hot GPU), the error that refuses to
// measure (exit 3).
func judgePreRun(findings []kernels.PreRunFinding, policy string) ([]string, error) {
	var warnings, blocking []string
	for _, f := range findings {
		warnings = append(warnings, f.Msg)
		if f.Blocking {
			blocking = append(blocking, f.Msg)
		}
	}
	if policy == preRunStrict && len(blocking) > 0 {
		return warnings, &exitError{code: exitInfra, err: fmt.Errorf("pre-run checks: not measuring: %s (perfgate doctor shows the GPU's state)", strings.Join(blocking, "; "))}
	}
	return warnings, nil
}

// preRunChecks runs perfgate doctor's checks before measuring, under policy,
// and returns the warnings. A perfgate built without CUDA measures no GPU
// suite and checks nothing. The CUDA context it opens is closed before any
// suite runs.
func preRunChecks(ctx context.Context, policy string) ([]string, error) {
	if policy == preRunOff || !kernels.CUDA {
		return nil, nil
	}
	s, err := kernels.Open(ctx)
	if err != nil {
		if policy == preRunStrict {
			return nil, err
		}
		return []string{"the pre-run checks could not open the GPU: " + err.Error()}, nil
	}
	rep, err := s.Doctor()
	s.Close()
	if err != nil {
		return nil, err
	}
	return judgePreRun(kernels.PreRunFindings(rep.Env), policy)
}

// printPreRun writes the pre-run warnings to w, one a line.
func printPreRun(w io.Writer, warnings []string) {
	for _, m := range warnings {
		fmt.Fprintf(w, "perfgate: pre-run check: %s\n", m)
	}
}

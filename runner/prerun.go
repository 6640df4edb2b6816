package runner

import (
	"context"
	"fmt"
	"strings"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/tracker/model"
)

// Pre-run check policies: the action's pre-run-checks input; run --strict
// is PreRunStrict.
const (
	PreRunOff    = "off"
	PreRunWarn   = "warn"
	PreRunStrict = "strict"
)

// PreRunPolicies are the policies, the default first.
var PreRunPolicies = []string{PreRunWarn, PreRunStrict, PreRunOff}

// JudgePreRun turns perfgate doctor's findings into the warnings to show
// and, under the strict policy with a blocking finding (another process on
// the GPU, clocks held down, MIG, a hot GPU), the error that refuses to
// measure (an infrastructure error: exit 3).
func JudgePreRun(findings []kernels.PreRunFinding, policy string) ([]string, error) {
	var warnings, blocking []string
	for _, f := range findings {
		warnings = append(warnings, f.Msg)
		if f.Blocking {
			blocking = append(blocking, f.Msg)
		}
	}
	if policy == PreRunStrict && len(blocking) > 0 {
		return warnings, &model.InfraError{Op: "pre-run checks", Err: fmt.Errorf("not measuring: %s (perfgate doctor shows the GPU's state)", strings.Join(blocking, "; "))}
	}
	return warnings, nil
}

// PreRun runs perfgate doctor's checks before measuring, under policy, and
// returns the warnings. A perfgate built without CUDA measures no GPU suite
// and checks nothing. The GPU it opens is released before any suite runs.
func (r *Runner) PreRun(ctx context.Context, policy string) ([]string, error) {
	if policy == PreRunOff || !kernels.CUDA {
		return nil, nil
	}
	g := r.gpuHolder()
	defer g.close()
	dev, err := g.get(ctx)
	if err != nil {
		if policy == PreRunStrict {
			return nil, err
		}
		return []string{"the pre-run checks could not " + err.Error()}, nil
	}
	return JudgePreRun(kernels.PreRunFindings(dev.Env()), policy)
}

// Doctor opens the GPU, as a run would, and returns its environment
// fingerprint (with perfgate's version) and the warnings about it.
func (r *Runner) Doctor(ctx context.Context) (kernels.Report, error) {
	g := r.gpuHolder()
	defer g.close()
	if _, err := g.get(ctx); err != nil {
		return kernels.Report{}, err
	}
	env := g.env()
	return kernels.Report{Env: env, Warnings: kernels.Diagnose(env)}, nil
}

package suites

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// A Python is a python suite ready to run: perfgate's Python harness, found
// under HarnessDir, runs the spec file Spec (written by the caller) and
// writes results v1 to Out.
type Python struct {
	Suite       string
	Origin      string // where the suite is declared, for errors
	Interpreter string // python3, or a path
	HarnessDir  string // the directory holding the perfgate_harness package
	Dir         string // the working directory: the configuration's
	Spec, Out   string // absolute paths
	Env         []string
	Timeout     time.Duration // 0 = none
}

// RunPython runs p and returns the benchmarks it wrote and their run's
// environment (the GPU's fingerprint). A harness that rejected its spec,
// module or function (exit status 2) is an input error naming the suite; any
// other failure is a *RunError. Every benchmark must belong to p.Suite.
func RunPython(ctx context.Context, p Python, o Options) ([]model.Benchmark, map[string]string, error) {
	if p.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, p.Timeout)
		defer cancel()
	}
	if o.Progress != nil {
		o.Progress(fmt.Sprintf("suite %s: %s -m perfgate_harness run (in %s)", p.Suite, p.Interpreter, p.Dir))
	}
	cmd := exec.CommandContext(ctx, p.Interpreter, "-m", "perfgate_harness", "run", p.Spec, p.Out)
	cmd.Dir = p.Dir
	cmd.Env = pythonPath(append(append([]string(nil), o.Env...), p.Env...), p.HarnessDir)
	setProcessGroup(cmd)
	log := o.Log
	if log == nil {
		log = io.Discard
	}
	tail := &tailWriter{max: tailBytes}
	cmd.Stdout, cmd.Stderr = log, io.MultiWriter(log, tail)
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 2 && ctx.Err() == nil {
			return nil, nil, &model.InputError{File: p.Origin, Msg: "the Python harness refused the suite: " + tail.String(), Err: err}
		}
		if ctx.Err() == context.DeadlineExceeded {
			err = fmt.Errorf("timed out after %v", p.Timeout)
		}
		return nil, nil, &RunError{Suite: p.Suite, Run: p.Interpreter + " -m perfgate_harness", Repeat: 1, Err: err, Tail: tail.String()}
	}
	r, err := resultsjson.Load(p.Out)
	if err != nil {
		return nil, nil, &model.InputError{File: p.Origin, Msg: "the Python harness wrote a results file perfgate cannot read", Err: err}
	}
	for _, b := range r.Benchmarks {
		if b.Suite != p.Suite {
			return nil, nil, &model.InputError{File: p.Origin, Msg: fmt.Sprintf("the Python harness wrote benchmark %q of suite %q, not %q", b.Name, b.Suite, p.Suite)}
		}
	}
	return r.Benchmarks, r.Run.Env, nil
}

// pythonPath returns env with dir first on PYTHONPATH (the last PYTHONPATH of
// env, as exec would take it, after it).
func pythonPath(env []string, dir string) []string {
	out := make([]string, 0, len(env)+1)
	path := dir
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PYTHONPATH="); ok {
			if v != "" {
				path = dir + string(os.PathListSeparator) + v
			}
			continue
		}
		out = append(out, kv)
	}
	return append(out, "PYTHONPATH="+path)
}

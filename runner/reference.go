package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/pyharness"
	"github.com/perfgate/perfgate/runner/torchref"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/suites"
)

// The values of Options.Reference: in-run references of the built-in
// suites, measured by perfgate's Python harness after the Go suites
// (runner/torchref owns which benchmark has which).
const (
	// ReferenceTorch measures the PyTorch references; a python3 that
	// cannot import torch (or sees no GPU) is an input error before
	// anything runs: the user asked for them.
	ReferenceTorch = "torch"
	// ReferenceAuto measures them when python3 imports torch, and
	// otherwise says so and runs without them.
	ReferenceAuto = "auto"
)

// ReferenceValues are the values the reference setting takes.
var ReferenceValues = []string{ReferenceTorch, ReferenceAuto}

// referencePython is the interpreter of the references, a python: suite's
// default.
const referencePython = config.DefaultInterpreter

// A torchEnv is what the probe found: where the harness is, and what it
// can measure.
type torchEnv struct {
	harness   string
	torch     string // version
	flashAttn string // version, "" when flash_attn does not import
}

// probe is python3 -m perfgate_harness probe's answer (torchref.probe).
type probe struct {
	Torch     string `json:"torch"`
	CUDA      bool   `json:"cuda"`
	FlashAttn string `json:"flash_attn"`
	Error     string `json:"error"`
}

// probeReference checks, before anything is measured, that the
// references o.Reference asks for can be measured, and settles it: torch
// when they will be, "" when not (off, or auto without PyTorch, said on
// r.Log), so that the processes of rounds and --devices need not decide
// again. It returns nil when there are none.
func (r *Runner) probeReference(ctx context.Context, o *Options) (*torchEnv, error) {
	te, err := r.probeTorch(ctx, o.Reference)
	o.Reference = ""
	if te != nil {
		o.Reference = ReferenceTorch
		if te.flashAttn == "" && slices.Contains(o.Suites, "attention") {
			r.logf("perfgate: %s: flash_attn does not import: attention is compared with SDPA only\n", model.Flag("reference"))
		}
	}
	return te, err
}

func (r *Runner) probeTorch(ctx context.Context, mode string) (*torchEnv, error) {
	if mode == "" {
		return nil, nil
	}
	harness, err := pyharness.Extract(kernels.CacheDir(r.CacheDir))
	if err != nil {
		return nil, &model.InfraError{Op: "write the Python harness", Err: err}
	}
	cmd := exec.CommandContext(ctx, referencePython, "-m", "perfgate_harness", "probe")
	cmd.Env = append(slices.DeleteFunc(slices.Clone(r.baseEnv()), func(kv string) bool { return strings.HasPrefix(kv, "PYTHONPATH=") }),
		"PYTHONPATH="+harness)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var p probe
	switch {
	case err != nil:
		p.Error = fmt.Sprintf("%s -m perfgate_harness probe: %v %s", referencePython, err, strings.TrimSpace(stderr.String()))
	case json.Unmarshal(out, &p) != nil:
		p.Error = fmt.Sprintf("%s -m perfgate_harness probe wrote %q", referencePython, strings.TrimSpace(string(out)))
	}
	if p.Error == "" && (p.Torch == "" || !p.CUDA) {
		p.Error = "torch " + p.Torch + " sees no CUDA device"
	}
	if p.Error != "" {
		if mode == ReferenceAuto {
			r.logf("perfgate: %s auto: running without PyTorch references: %s\n", model.Flag("reference"), p.Error)
			return nil, nil
		}
		return nil, model.SettingError("reference", "torch is not usable (%s); install PyTorch with CUDA for %s on PATH, or use %s auto to run without the references when it is missing", p.Error, referencePython, model.Flag("reference"))
	}
	return &torchEnv{harness: harness, torch: p.Torch, flashAttn: p.FlashAttn}, nil
}

// withReferences measures the PyTorch references of the built-in suites
// names as k selects them, one harness process per suite, and returns bs
// merged with them (torchref.Merge) and env with the versions of torch
// and flash_attn. te nil: bs and env unchanged.
func (r *Runner) withReferences(ctx context.Context, te *torchEnv, names []string, k kernels.Options,
	bs []model.Benchmark, env map[string]string) ([]model.Benchmark, map[string]string, error) {
	if te == nil {
		return bs, env, nil
	}
	byName := map[string][]string{}
	for _, s := range kernels.ListFor(k) {
		if slices.Contains(names, s.Name) {
			byName[s.Name] = s.Benchmarks
		}
	}
	files, err := torchref.Plan(names, byName, filepath.Join(te.harness, "perfgate_harness", "torchref.py"), te.flashAttn != "",
		torchref.Budget{Size: k.Size, Fast: k.Fast, MaxTime: int64(k.MaxTime), Pace: k.Pace})
	if err != nil {
		return nil, nil, &model.InputError{Setting: "reference", Msg: err.Error(), Err: err}
	}
	tmp, err := os.MkdirTemp("", "perfgate-reference-")
	if err != nil {
		return nil, nil, &model.InfraError{Op: "make a temporary directory", Err: err}
	}
	defer os.RemoveAll(tmp)
	p := NewProgress(r.Log)
	defer p.Done()
	var arms []model.Benchmark
	for _, suite := range names {
		f, ok := files[suite]
		if !ok {
			continue
		}
		got, err := r.runReferences(ctx, te, tmp, suite, f, p)
		if err != nil {
			return nil, nil, err
		}
		arms = append(arms, got...)
	}
	merged, err := torchref.Merge(bs, arms)
	if err != nil {
		return nil, nil, &model.InputError{Setting: "reference", Msg: err.Error(), Err: err}
	}
	if env == nil {
		env = map[string]string{}
	}
	env["torch"] = te.torch
	if te.flashAttn != "" {
		env["flash_attn"] = te.flashAttn
	}
	return merged, env, nil
}

// runReferences runs one suite's file of reference specs.
func (r *Runner) runReferences(ctx context.Context, te *torchEnv, tmp, suite string, f torchref.File, p *Progress) ([]model.Benchmark, error) {
	spec, out := filepath.Join(tmp, suite+".json"), filepath.Join(tmp, suite+"-results.json")
	data, err := json.Marshal(f)
	if err == nil {
		err = os.WriteFile(spec, data, 0o644)
	}
	if err != nil {
		return nil, &model.InfraError{Op: "write the reference spec of " + suite, Err: err}
	}
	bs, _, err := suites.RunPython(ctx, suites.Python{
		Suite: suite, Origin: model.Flag("reference").String() + " torch: suite " + suite, Interpreter: referencePython, HarnessDir: te.harness, Dir: tmp,
		Spec: spec, Out: out,
	}, suites.Options{Env: r.baseEnv(), Log: r.Log, Progress: p.Line})
	var re *suites.RunError
	if errors.As(err, &re) && ctx.Err() == nil {
		// The process died (a CUDA error that poisons torch's context, a
		// crash): the suite's own results stand, and every arm it was to
		// measure is an error benchmark saying why, gated as one.
		why := fmt.Sprintf("the PyTorch references' process failed: %v", re.Err)
		if tail := lastLine(re.Tail); tail != "" {
			why += ": " + tail
		}
		r.logf("perfgate: %s: suite %s: %s\n", model.Flag("reference"), suite, why)
		var out []model.Benchmark
		for _, n := range f.Names() {
			out = append(out, model.Benchmark{Suite: suite, Name: n, Unit: "us", Better: model.Lower, Samples: []float64{}, Error: why})
		}
		return out, nil
	}
	if errors.As(err, &re) {
		return nil, &model.InfraError{Op: "measure the PyTorch references of suite " + suite, Err: err}
	}
	return bs, err
}

// lastLine is the last non-empty line of s, at most 300 bytes of it.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	l := strings.TrimSpace(lines[len(lines)-1])
	if len(l) > 300 {
		l = l[:300]
	}
	return l
}

// listReferences writes the reference arms of a suite's built-in
// benchmarks names, as run --list does; FlashAttention-2's are measured
// only where flash_attn imports.
func listReferences(w io.Writer, suite string, names []string) {
	files, err := torchref.Plan([]string{suite}, map[string][]string{suite: names}, "", true, torchref.Budget{})
	if err != nil {
		return // built-in names always parse (torchref's tests)
	}
	for _, n := range files[suite].Names() {
		note := ""
		if strings.HasPrefix(n, "torch.flash_attn2/") {
			note = "  (where flash_attn imports)"
		}
		fmt.Fprintf(w, "  %s%s\n", n, note)
	}
}

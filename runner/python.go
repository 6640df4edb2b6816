package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/pyharness"
	"github.com/perfgate/perfgate/runner/pyspec"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/suites"
)

// pythonSpec builds the spec of python suite s of cfg.
func pythonSpec(cfg *config.Config, s *config.Suite, o ConfigOptions) (pyspec.Spec, error) {
	p := s.Python
	cases, err := p.Cases()
	if err != nil {
		return pyspec.Spec{}, &model.InputError{File: cfg.File, Msg: err.Error(), Err: err}
	}
	spec := pyspec.Spec{Suite: s.Name, Name: p.Name, Module: filepath.Join(cfg.Dir, p.Module), Function: p.Function,
		Graph: true, Modes: []string{kernels.ModeCold, kernels.ModeBatch}, Fast: o.Fast, Pace: o.Pace}
	if r := p.Reference; r != nil {
		mod := p.Module
		if r.Module != "" {
			mod = r.Module
		}
		spec.Reference = &pyspec.Func{Name: r.Name, Module: filepath.Join(cfg.Dir, mod), Function: r.Function}
		spec.Tolerance = r.Tolerance
	}
	for _, c := range cases {
		spec.Cases = append(spec.Cases, pyspec.Case{Params: c.Params, DType: c.DType, Bytes: c.Bytes, FLOPs: c.FLOPs})
	}
	return spec, nil
}

// pythonNames returns the benchmark names python suite s measures, in order,
// as the harness names them (results.benchmark_name): op, the parameters and
// dtype in key order, the mode; the reference's after the suite's own.
func pythonNames(cfg *config.Config, s *config.Suite) ([]string, error) {
	spec, err := pythonSpec(cfg, s, ConfigOptions{})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, c := range spec.Cases {
		params := maps.Clone(c.Params)
		if c.DType != "" {
			params["dtype"] = c.DType
		}
		ops := []string{spec.Name}
		if spec.Reference != nil {
			ops = append(ops, spec.Reference.Name)
		}
		for _, op := range ops {
			for _, m := range spec.Modes {
				out = append(out, kernels.UserBenchmarkName(op, params, m))
			}
		}
	}
	return out, nil
}

// runPython runs python suite s through perfgate's Python harness, written
// out under the cache directory; the spec and the results live in a
// temporary directory removed afterwards.
func (c *configRun) runPython(ctx context.Context, s *config.Suite) ([]model.Benchmark, error) {
	spec, err := pythonSpec(c.cfg, s, c.opts)
	if err != nil {
		return nil, err
	}
	harness, err := pyharness.Extract(kernels.CacheDir(c.CacheDir))
	if err != nil {
		return nil, &model.InfraError{Op: "write the Python harness", Err: err}
	}
	tmp, err := os.MkdirTemp("", "perfgate-python-")
	if err != nil {
		return nil, &model.InfraError{Op: "make a temporary directory", Err: err}
	}
	defer os.RemoveAll(tmp)
	data, err := json.Marshal(spec)
	if err == nil {
		err = os.WriteFile(filepath.Join(tmp, "spec.json"), data, 0o644)
	}
	if err != nil {
		return nil, &model.InfraError{Op: "write the python suite's spec", Err: err}
	}
	p := s.Python
	interp := p.Interpreter // a name is looked up on PATH; a path is the configuration's
	if strings.ContainsRune(interp, '/') && !filepath.IsAbs(interp) {
		interp = filepath.Join(c.cfg.Dir, interp)
	}
	bs, env, err := suites.RunPython(ctx, suites.Python{
		Suite: s.Name, Origin: fmt.Sprintf("%s line %d: suite %s", c.cfg.File, s.Line, s.Name),
		Interpreter: interp, HarnessDir: harness, Dir: c.cfg.Dir,
		Spec: filepath.Join(tmp, "spec.json"), Out: filepath.Join(tmp, "results.json"), Env: p.Env, Timeout: p.Timeout,
	}, suites.Options{Env: c.baseEnv(), Log: c.Log, Progress: c.progress})
	var re *suites.RunError
	if errors.As(err, &re) {
		return nil, &model.InfraError{Op: fmt.Sprintf("run suite %s (%s line %d)", s.Name, c.cfg.File, s.Line), Err: err}
	}
	if c.pyEnv == nil && env != nil {
		env[kernels.EnvPerfgate] = c.gpu.version
		c.pyEnv = env
	}
	return bs, err
}

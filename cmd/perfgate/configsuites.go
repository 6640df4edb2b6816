package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/suites"
)

// suiteRunOptions tune how the suites of a .perfgate.yml run.
type suiteRunOptions struct {
	// Only keeps the suites whose names match (nil: all).
	Only *regexp.Regexp
	// Fast lowers the GPU time budgets (smoke runs).
	Fast bool
	// Log receives command suites' standard error and progress lines.
	Log io.Writer
	// Env is the base environment of command suites (nil: os.Environ()).
	Env []string
	// CacheDir holds compiled PTX ("": $PERFGATE_CACHE, else kernels' default).
	CacheDir string
	// SkipPrepare leaves out the prepare commands (a process of a round:
	// the parent prepared once).
	SkipPrepare bool
}

// configRunner runs the suites of one configuration. The GPU session is
// opened on the first kernel or builtin suite and shared by every runner
// that shares the gpuHolder (both sides of perfgate ab use one GPU context).
type configRunner struct {
	cfg  *config.Config
	gpu  *gpuHolder
	opts suiteRunOptions
}

// gpuHolder opens a kernels.Session on first use.
type gpuHolder struct{ sess *kernels.Session }

func (g *gpuHolder) session(ctx context.Context) (*kernels.Session, error) {
	if g.sess != nil {
		return g.sess, nil
	}
	s, err := kernels.Open(ctx)
	if err != nil {
		return nil, &model.InfraError{Op: "open the GPU for kernel and builtin suites", Err: err}
	}
	g.sess = s
	return s, nil
}

// env returns the GPU fingerprint with perfgate's own version, or nil when
// no GPU suite ran.
func (g *gpuHolder) env() map[string]string {
	if g.sess == nil {
		return nil
	}
	env := g.sess.Env()
	env[kernels.EnvPerfgate] = buildVersion()
	return env
}

func (g *gpuHolder) close() {
	if g.sess != nil {
		g.sess.Close()
		g.sess = nil
	}
}

// runConfigSuites runs every suite of cfg in order (after its prepare
// commands) and returns their benchmarks and, when a GPU suite ran, the
// GPU's environment fingerprint for the run block.
func runConfigSuites(ctx context.Context, e *env, cfg *config.Config, o suiteRunOptions) ([]model.Benchmark, map[string]string, error) {
	if o.Log == nil {
		o.Log = e.Stderr
	}
	if o.CacheDir == "" {
		o.CacheDir = e.Getenv("PERFGATE_CACHE")
	}
	gpu := &gpuHolder{}
	defer gpu.close()
	r := &configRunner{cfg: cfg, gpu: gpu, opts: o}
	if !o.SkipPrepare {
		if err := r.prepare(ctx); err != nil {
			return nil, nil, err
		}
	}
	bs, err := r.run(ctx)
	return bs, gpu.env(), err
}

// runConfigRounds runs the suites of cfg that o selects in spec.rounds
// rounds: the prepare commands once, here, then every suite in its own
// perfgate process per round (runRounds). No suite selected: nil, nil.
func runConfigRounds(ctx context.Context, e *env, cfg *config.Config, o suiteRunOptions, spec roundsSpec) ([]*model.Results, error) {
	if o.Log == nil {
		o.Log = e.Stderr
	}
	r := &configRunner{cfg: cfg, opts: o}
	if spec.units = r.units(); len(spec.units) == 0 {
		return nil, nil
	}
	if !o.SkipPrepare {
		if err := r.prepare(ctx); err != nil {
			return nil, err
		}
	}
	return runRounds(ctx, e, spec)
}

// units are the processes of one round of the selected suites: perfgate
// run --config for each suite alone, without the prepare commands.
func (r *configRunner) units() []roundUnit {
	var units []roundUnit
	for _, s := range r.cfg.Suites {
		if r.opts.Only != nil && !r.opts.Only.MatchString(s.Name) {
			continue
		}
		args := []string{"run", "--config", r.cfg.File, "--suite", s.Name, "--skip-prepare"}
		if r.opts.Fast {
			args = append(args, "--fast")
		}
		units = append(units, roundUnit{name: s.Name, args: args})
	}
	return units
}

// prepare runs the configuration's prepare commands in its directory.
func (r *configRunner) prepare(ctx context.Context) error {
	for _, p := range r.cfg.Prepare {
		fmt.Fprintf(r.opts.Log, "perfgate: prepare (%s): %s\n", r.cfg.Dir, p)
		cmd := exec.CommandContext(ctx, "sh", "-c", p)
		cmd.Dir, cmd.Env = r.cfg.Dir, r.baseEnv()
		cmd.Stdout, cmd.Stderr = r.opts.Log, r.opts.Log
		if err := cmd.Run(); err != nil {
			return &model.InfraError{Op: fmt.Sprintf("prepare command `%s` in %s", p, r.cfg.Dir), Err: err}
		}
	}
	return nil
}

func (r *configRunner) baseEnv() []string {
	if r.opts.Env != nil {
		return r.opts.Env
	}
	return os.Environ()
}

// run runs the selected suites once, in order.
func (r *configRunner) run(ctx context.Context) ([]model.Benchmark, error) {
	var out []model.Benchmark
	for i := range r.cfg.Suites {
		s := &r.cfg.Suites[i]
		if r.opts.Only != nil && !r.opts.Only.MatchString(s.Name) {
			continue
		}
		var bs []model.Benchmark
		var err error
		switch {
		case s.Command != nil:
			bs, err = r.runCommand(ctx, s)
		case s.Kernel != nil:
			bs, err = r.runKernel(ctx, s)
		default:
			bs, err = r.runBuiltin(ctx, s)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, bs...)
	}
	return out, nil
}

func (r *configRunner) runCommand(ctx context.Context, s *config.Suite) ([]model.Benchmark, error) {
	c := s.Command
	bs, err := suites.Run(ctx, suites.Command{
		Suite: s.Name, Run: c.Run, Dir: filepath.Join(r.cfg.Dir, c.Dir), Env: c.Env, Format: c.Format,
		Output: c.Output, Repeat: c.Repeat, Timeout: c.Timeout, Unit: c.Unit, Better: c.Better, Metric: c.Metric,
	}, suites.Options{Env: r.baseEnv(), Log: r.opts.Log, Progress: r.progress})
	var re *suites.RunError
	if errors.As(err, &re) {
		return nil, &model.InfraError{Op: fmt.Sprintf("%s (%s line %d)", "run suite "+s.Name, r.cfg.File, s.Line), Err: err}
	}
	return bs, err
}

func (r *configRunner) progress(line string) { fmt.Fprintf(r.opts.Log, "perfgate: %s\n", line) }

func (r *configRunner) kernelOptions() kernels.Options {
	return kernels.Options{Fast: r.opts.Fast, Progress: r.progress, CacheDir: r.opts.CacheDir}
}

func (r *configRunner) runKernel(ctx context.Context, s *config.Suite) ([]model.Benchmark, error) {
	uks, err := userKernels(r.cfg, s)
	if err != nil {
		return nil, err
	}
	sess, err := r.gpu.session(ctx)
	if err != nil {
		return nil, err
	}
	var out []model.Benchmark
	for _, uk := range uks {
		bs, err := sess.RunUserKernel(ctx, uk, r.kernelOptions())
		if err != nil {
			return nil, fmt.Errorf("kernel suite %s (%s line %d): %w", s.Name, r.cfg.File, s.Line, err)
		}
		out = append(out, bs...)
	}
	kernels.AddRefSpeedups(out) // the variants ran as separate user kernels
	return out, nil
}

func (r *configRunner) runBuiltin(ctx context.Context, s *config.Suite) ([]model.Benchmark, error) {
	b := s.Builtin
	o := r.kernelOptions()
	o.Size, o.DTypes, o.MaxTime, o.Fast = b.Size, b.DTypes, b.MaxTime, b.Fast || r.opts.Fast
	if b.Filter != "" {
		o.Filter = regexp.MustCompile(b.Filter) // config checked it compiles
	}
	if err := kernels.ValidateOptions(o); err != nil {
		return nil, &model.InputError{File: r.cfg.File, Path: fmt.Sprintf("line %d: suites: %s", s.Line, s.Name), Msg: err.Error(), Err: err}
	}
	if !slices.Contains(kernels.SuiteNames(), b.Suite) {
		return nil, &model.InputError{File: r.cfg.File, Path: fmt.Sprintf("line %d: suites: %s.builtin.suite", s.Line, s.Name),
			Msg: fmt.Sprintf("%q is not a built-in suite (have %s)", b.Suite, strings.Join(kernels.SuiteNames(), ", "))}
	}
	sess, err := r.gpu.session(ctx)
	if err != nil {
		return nil, err
	}
	bs, err := sess.RunSuite(ctx, b.Suite, o)
	if err != nil {
		return nil, fmt.Errorf("builtin suite %s: %w", s.Name, err)
	}
	for i := range bs {
		bs[i].Suite = s.Name
	}
	return bs, nil
}

// userKernels turns a kernel suite into the GPU harness's UserKernels: one
// per distinct set of NVRTC options (options may use ${param}, so a sweep
// can compile several variants), in sweep order.
func userKernels(cfg *config.Config, s *config.Suite) ([]kernels.UserKernel, error) {
	k := s.Kernel
	src, err := readKernelSource(cfg, s, k.Source)
	if err != nil {
		return nil, err
	}
	var ref *kernels.UserReference
	if k.Reference != nil {
		ref = &kernels.UserReference{Entry: k.Reference.Entry, Tolerance: k.Reference.Tolerance}
		if k.Reference.Source != "" {
			if ref.Source, err = readKernelSource(cfg, s, k.Reference.Source); err != nil {
				return nil, err
			}
		}
	}
	cases, err := k.Cases()
	if err != nil {
		return nil, &model.InputError{File: cfg.File, Msg: err.Error(), Err: err}
	}
	var out []kernels.UserKernel
	index := map[string]int{}
	for _, c := range cases {
		key := strings.Join(c.Options, "\x00")
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, kernels.UserKernel{Suite: s.Name, Name: k.Name, File: filepath.Join(cfg.Dir, k.Source),
				Source: src, Entry: k.Entry, Options: c.Options, SpeedupVs: k.SpeedupVs})
		}
		out[i].Cases = append(out[i].Cases, userCase(c, ref))
	}
	return out, nil
}

func readKernelSource(cfg *config.Config, s *config.Suite, rel string) (string, error) {
	data, err := os.ReadFile(filepath.Join(cfg.Dir, rel))
	if err != nil {
		return "", &model.InputError{File: cfg.File, Path: fmt.Sprintf("line %d: suites: %s", s.Line, s.Name), Msg: "cannot read kernel source " + rel, Err: err}
	}
	return string(data), nil
}

func userCase(c config.Case, ref *kernels.UserReference) kernels.UserCase {
	uc := kernels.UserCase{Params: c.Params, Grid: c.Grid, Block: c.Block, SharedBytes: c.SharedBytes, Bytes: c.Bytes, FLOPs: c.FLOPs, Reference: ref}
	for _, b := range c.Buffers {
		uc.Buffers = append(uc.Buffers, kernels.UserBuffer{Name: b.Name, DType: b.DType, Len: b.Len, Init: b.Init, Value: b.Value, Output: b.Output})
	}
	for _, a := range c.Args {
		uc.Args = append(uc.Args, kernels.UserArg{Buffer: a.Buffer, DType: a.DType, Value: a.Value})
	}
	return uc
}

package runner

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/runmeta"
	"github.com/perfgate/perfgate/tracker/suites"
)

// ConfigOptions tune how the suites of a .perfgate.yml run.
type ConfigOptions struct {
	// Only keeps the suites whose names match (nil: all).
	Only *regexp.Regexp
	// Fast lowers the GPU time budgets (smoke runs).
	Fast bool
	// Pace is kernels.Options.Pace for builtin suites.
	Pace string
	// SkipPrepare leaves out the prepare commands (a process of a round:
	// the parent prepared once).
	SkipPrepare bool
	// SkipUnchangedAgainst names results files of the baseline
	// (comma-separated): builtin suites do not measure the benchmarks whose
	// kernels' ptx_sha256 is the one recorded there under the config
	// suite's name (skip.go). Kernel and command suites are measured.
	SkipUnchangedAgainst string
}

// Config runs every suite of cfg that o selects, in order (after its
// prepare commands), and returns their benchmarks and, when a GPU suite
// ran, the GPU's environment fingerprint for the run block.
func (r *Runner) Config(ctx context.Context, cfg *config.Config, o ConfigOptions) ([]model.Benchmark, map[string]string, error) {
	gpu := r.gpuHolder()
	defer gpu.close()
	if !o.SkipPrepare {
		if err := r.Prepare(ctx, cfg); err != nil {
			return nil, nil, err
		}
	}
	cr := &configRun{Runner: r, cfg: cfg, opts: o, gpu: gpu}
	if o.SkipUnchangedAgainst != "" {
		var err error
		if cr.unchanged, err = loadUnchanged(o.SkipUnchangedAgainst); err != nil {
			return nil, nil, err
		}
	}
	bs, err := cr.run(ctx)
	if env := gpu.env(); env != nil || cr.pyEnv == nil {
		return bs, env, err
	}
	return bs, cr.pyEnv, err // only python suites ran: the Python harness's fingerprint
}

// ConfigRounds runs the suites of cfg that o selects in spec.Rounds rounds:
// the prepare commands once, here, then every suite in its own perfgate
// process per round (Rounds). spec.Units is ignored. No suite selected:
// nil, nil.
func (r *Runner) ConfigRounds(ctx context.Context, cfg *config.Config, o ConfigOptions, spec Spec) ([]*model.Results, error) {
	if spec.Units = ConfigUnits(cfg, o); len(spec.Units) == 0 {
		return nil, nil
	}
	if !o.SkipPrepare {
		if err := r.Prepare(ctx, cfg); err != nil {
			return nil, err
		}
	}
	return r.Rounds(ctx, spec)
}

// ConfigUnits are the processes of one round of the suites of cfg that o
// selects: perfgate run of the config for each suite alone, without the
// prepare commands.
func ConfigUnits(cfg *config.Config, o ConfigOptions) []Unit {
	var units []Unit
	for _, s := range cfg.Suites {
		if o.Only != nil && !o.Only.MatchString(s.Name) {
			continue
		}
		c := Settings{Config: cfg.File, Suites: s.Name, SkipPrepare: true, Fast: o.Fast, SkipUnchanged: o.SkipUnchangedAgainst}
		units = append(units, Unit{Name: s.Name, Child: Child{Settings: c}})
	}
	return units
}

// Prepare runs the configuration's prepare commands in its directory.
func (r *Runner) Prepare(ctx context.Context, cfg *config.Config) error {
	for _, p := range cfg.Prepare {
		fmt.Fprintf(r.Log, "perfgate: prepare (%s): %s\n", cfg.Dir, p)
		cmd := exec.CommandContext(ctx, "sh", "-c", p)
		cmd.Dir, cmd.Env = cfg.Dir, r.baseEnv()
		cmd.Stdout, cmd.Stderr = r.Log, r.Log
		if err := cmd.Run(); err != nil {
			return &model.InfraError{Op: fmt.Sprintf("prepare command `%s` in %s", p, cfg.Dir), Err: err}
		}
	}
	return nil
}

// A configRun runs the selected suites of one configuration once. The GPU
// is opened on the first kernel or builtin suite.
type configRun struct {
	*Runner
	cfg  *config.Config
	opts ConfigOptions
	gpu  *gpuHolder
	// unchanged maps "config suite/benchmark" to the baseline's ptx_sha256
	// (ConfigOptions.SkipUnchangedAgainst).
	unchanged map[string]string
	// pyEnv is the run environment the first python suite's harness wrote.
	pyEnv map[string]string
}

func (c *configRun) run(ctx context.Context) ([]model.Benchmark, error) {
	var out []model.Benchmark
	for i := range c.cfg.Suites {
		s := &c.cfg.Suites[i]
		if c.opts.Only != nil && !c.opts.Only.MatchString(s.Name) {
			continue
		}
		var bs []model.Benchmark
		var err error
		switch {
		case s.Command != nil:
			bs, err = c.runCommand(ctx, s)
		case s.Kernel != nil:
			bs, err = c.runKernel(ctx, s)
		case s.Python != nil:
			bs, err = c.runPython(ctx, s)
		default:
			bs, err = c.runBuiltin(ctx, s)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, bs...)
	}
	return out, nil
}

func (c *configRun) runCommand(ctx context.Context, s *config.Suite) ([]model.Benchmark, error) {
	cmd := s.Command
	bs, err := suites.Run(ctx, suites.Command{
		Suite: s.Name, Run: cmd.Run, Root: cmp.Or(runmeta.RepoRoot(ctx, c.cfg.Dir), c.cfg.Dir), Dir: filepath.Join(c.cfg.Dir, cmd.Dir),
		Origin: fmt.Sprintf("%s line %d: suite %s", c.cfg.File, s.Line, s.Name),
		Env:    cmd.Env, Format: cmd.Format,
		Output: cmd.Output, Repeat: cmd.Repeat, Timeout: cmd.Timeout, Unit: cmd.Unit, Better: cmd.Better, Metric: cmd.Metric,
	}, suites.Options{Env: c.baseEnv(), Log: c.Log, Progress: c.progress})
	var re *suites.RunError
	if errors.As(err, &re) {
		return nil, &model.InfraError{Op: fmt.Sprintf("%s (%s line %d)", "run suite "+s.Name, c.cfg.File, s.Line), Err: err}
	}
	return bs, err
}

func (c *configRun) progress(line string) { fmt.Fprintf(c.Log, "perfgate: %s\n", line) }

func (c *configRun) kernelOptions() kernels.Options {
	return kernels.Options{Fast: c.opts.Fast, Pace: c.opts.Pace, Progress: c.progress, CacheDir: c.CacheDir}
}

func (c *configRun) runKernel(ctx context.Context, s *config.Suite) ([]model.Benchmark, error) {
	uks, err := userKernels(c.cfg, s)
	if err != nil {
		return nil, err
	}
	gpu, err := c.gpu.get(ctx)
	if err != nil {
		return nil, err
	}
	var out []model.Benchmark
	for _, uk := range uks {
		bs, err := gpu.RunUserKernel(ctx, uk, c.kernelOptions())
		if err != nil {
			return nil, fmt.Errorf("kernel suite %s (%s line %d): %w", s.Name, c.cfg.File, s.Line, err)
		}
		out = append(out, bs...)
	}
	kernels.AddRefSpeedups(out) // the variants ran as separate user kernels
	return out, nil
}

func (c *configRun) runBuiltin(ctx context.Context, s *config.Suite) ([]model.Benchmark, error) {
	b := s.Builtin
	o := c.kernelOptions()
	o.Size, o.DTypes, o.MaxTime, o.Fast = b.Size, b.DTypes, b.MaxTime, b.Fast || c.opts.Fast
	o.Unchanged = renameSuite(c.unchanged, s.Name, b.Suite)
	if b.Filter != "" {
		o.Filter = regexp.MustCompile(b.Filter) // config checked it compiles
	}
	if err := kernels.ValidateOptions(o); err != nil {
		return nil, &model.InputError{File: c.cfg.File, Path: fmt.Sprintf("line %d: suites: %s", s.Line, s.Name), Msg: err.Error(), Err: err}
	}
	if !slices.Contains(kernels.SuiteNames(), b.Suite) {
		return nil, &model.InputError{File: c.cfg.File, Path: fmt.Sprintf("line %d: suites: %s.builtin.suite", s.Line, s.Name),
			Msg: fmt.Sprintf("%q is not a built-in suite (have %s)", b.Suite, strings.Join(kernels.SuiteNames(), ", "))}
	}
	gpu, err := c.gpu.get(ctx)
	if err != nil {
		return nil, err
	}
	bs, err := gpu.RunSuite(ctx, b.Suite, o)
	if err != nil {
		return nil, fmt.Errorf("builtin suite %s: %w", s.Name, err)
	}
	for i := range bs {
		bs[i].Suite = s.Name
	}
	return bs, nil
}

package runner

import (
	"context"
	"regexp"
	"strings"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
)

// Options are what one perfgate run measures.
type Options struct {
	// Suites are the built-in suites to run, or with Config the names of
	// the configuration's suites to run (none: all of them).
	Suites []string
	// Config is the .perfgate.yml whose suites run (nil: built-in suites).
	Config *config.Config
	// Kernel selects and tunes the built-in suites' benchmarks.
	Kernel kernels.Options
	// Rounds is how many rounds to run (≥ 2: each suite in its own process
	// per round, one results document per round).
	Rounds int
	// Devices are the GPUs to run on at once, one worker process each
	// (nil: this process, on the GPU it sees).
	Devices []kernels.Device
	// SkipPrepare leaves out the configuration's prepare commands.
	SkipPrepare bool
	// Strict runs perfgate doctor's checks first and refuses a GPU in a
	// state that would spoil the measurement (PreRunStrict).
	Strict bool
	// Reference names the in-run references to measure after the
	// built-in suites: "" none, ReferenceTorch or ReferenceAuto.
	Reference string
	// SkipUnchangedAgainst names results files of the baseline
	// (comma-separated): the benchmarks whose kernels' ptx_sha256 is their
	// newest run's are not measured but reported as skipped (skip.go).
	// Built-in suites, and builtin suites of a config, only.
	SkipUnchangedAgainst string
	// Given are the settings these options were made from
	// (Settings.Options): the processes of rounds and --devices start from
	// them (builtinChild).
	Given Settings
	// Meta returns the run block of the results; Run calls it once, after
	// checking the options.
	Meta func() (model.Run, error)
}

// Run measures what o says and returns the results: one document, or one
// per round.
func (r *Runner) Run(ctx context.Context, o Options) ([]*model.Results, error) {
	if o.Config != nil {
		return r.runConfig(ctx, o)
	}
	if err := CheckSuites(o.Suites); err != nil {
		return nil, err
	}
	if err := CheckSelection(o.Suites, o.Kernel); err != nil {
		return nil, err
	}
	if err := r.strict(ctx, o.Strict); err != nil {
		return nil, err
	}
	te, err := r.probeReference(ctx, &o)
	if err != nil {
		return nil, err
	}
	if o.SkipUnchangedAgainst != "" {
		u, err := loadUnchanged(o.SkipUnchangedAgainst)
		if err != nil {
			return nil, err
		}
		o.Kernel.Unchanged = u
	}
	if len(o.Devices) > 0 {
		if o.Rounds > 1 {
			return nil, model.SettingError("devices", "not with %s (run the rounds on each GPU in turn)", model.Flag("rounds"))
		}
		run, err := o.Meta()
		if err != nil {
			return nil, err
		}
		res, err := r.OnDevices(ctx, o.Devices, devicesChild(o), run)
		if err != nil {
			return nil, err
		}
		return []*model.Results{res}, nil
	}
	if host, _ := kernels.CountHostAndGPU(o.Suites, o.Kernel); !kernels.CUDA && host == 0 {
		return nil, kernels.ErrNoCUDA
	}
	run, err := o.Meta()
	if err != nil {
		return nil, err
	}
	if o.Rounds > 1 {
		units := BuiltinUnits(o)
		return r.Rounds(ctx, Spec{Rounds: o.Rounds, Units: units, Run: run, Prefix: "r"})
	}
	bs, env, err := r.Builtin(ctx, o.Suites, o.Kernel)
	if err == nil {
		bs, env, err = r.withReferences(ctx, te, o.Suites, o.Kernel, bs, env)
	}
	if err != nil {
		return nil, err
	}
	run.Env = env
	return []*model.Results{{Schema: model.Schema, Run: run, Benchmarks: bs}}, nil
}

// runConfig runs the suites of o.Config (all of them, or those o.Suites
// names).
func (r *Runner) runConfig(ctx context.Context, o Options) ([]*model.Results, error) {
	cfg := o.Config
	if err := r.strict(ctx, o.Strict); err != nil {
		return nil, err
	}
	co := ConfigOptions{Fast: o.Kernel.Fast, Pace: o.Kernel.Pace, SkipPrepare: o.SkipPrepare, SkipUnchangedAgainst: o.SkipUnchangedAgainst}
	if len(o.Suites) > 0 {
		quoted := make([]string, len(o.Suites))
		for i, n := range o.Suites {
			quoted[i] = regexp.QuoteMeta(n)
		}
		co.Only = regexp.MustCompile("^(" + strings.Join(quoted, "|") + ")$")
	}
	run, err := o.Meta()
	if err != nil {
		return nil, err
	}
	var rs []*model.Results
	if o.Rounds > 1 {
		rs, err = r.ConfigRounds(ctx, cfg, co, Spec{Rounds: o.Rounds, Run: run, Prefix: "r"})
	} else {
		var bs []model.Benchmark
		bs, run.Env, err = r.Config(ctx, cfg, co)
		if len(bs) > 0 {
			rs = []*model.Results{{Schema: model.Schema, Run: run, Benchmarks: bs}}
		}
	}
	if err == nil && len(rs) == 0 {
		err = model.SettingError("suite", "%q selects no suite of %s", strings.Join(o.Suites, ","), cfg.File)
	}
	return rs, err
}

// strict runs the pre-run checks of run --strict, writing the warnings to
// r.Log.
func (r *Runner) strict(ctx context.Context, on bool) error {
	if !on {
		return nil
	}
	warnings, err := r.PreRun(ctx, PreRunStrict)
	for _, w := range warnings {
		r.logf("perfgate: pre-run check: %s\n", w)
	}
	return err
}

// devicesChild is the worker process of each GPU of o.Devices: o's
// built-in suites as o selects them.
func devicesChild(o Options) Child {
	c := builtinChild(o, o.Suites)
	c.Strict = o.Strict
	return c
}

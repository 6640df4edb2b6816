package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
)

func init() {
	register(&command{Name: "run", Summary: "run built-in GPU suites and write results v1", Run: runRun})
}

// runFlags are perfgate run's flags.
type runFlags struct {
	suites, filter, ops, size, dtypes, out string
	config, devices                        string
	skipUnchangedAgainst                   string
	list, fast, skipPrepare, strict        bool
	rounds                                 int
	maxTime                                time.Duration
	meta                                   runMetaFlags
}

func (f *runFlags) register(fs interface {
	StringVar(*string, string, string, string)
	BoolVar(*bool, string, bool, string)
	DurationVar(*time.Duration, string, time.Duration, string)
	IntVar(*int, string, int, string)
}, e *env) {
	fs.StringVar(&f.suites, "suite", envDefault(e, "PERFGATE_SUITE", ""), "comma-separated built-in suites: "+strings.Join(kernels.SuiteNames(), ", ")+" (env PERFGATE_SUITE; default: the suites of ./.perfgate.yml if it exists, else "+strings.Join(kernels.DefaultSuites(), ",")+" at --size ci)")
	fs.StringVar(&f.filter, "filter", "", "run only benchmarks whose suite/name matches this regular expression")
	fs.StringVar(&f.ops, "op", "", "comma-separated operations to run (the first name segment: layernorm, cublas, add, …); with --filter, both must match")
	fs.StringVar(&f.size, "size", envDefault(e, "PERFGATE_SIZE", kernels.SizeMedium), "size preset: "+strings.Join(kernels.Sizes, ", ")+" (env PERFGATE_SIZE; ci without --suite)")
	fs.StringVar(&f.dtypes, "dtype", "", "comma-separated element types to run: "+strings.Join(kernels.DTypes, ", ")+" (default: all)")
	fs.StringVar(&f.out, "out", "", "write results v1 to this file (default: standard output); with --rounds, a directory (DIR/round-N.json) or a `pattern` with {round}")
	fs.IntVar(&f.rounds, "rounds", 1, "run every suite in this many separate processes (rounds, in a rotated suite order); each round is one results file")
	fs.BoolVar(&f.skipPrepare, "skip-prepare", false, "with --config: do not run the prepare commands (perfgate sets it for the processes of --rounds, after preparing once)")
	fs.StringVar(&f.config, "config", "", "run the suites this .perfgate.yml declares (--suite then selects among them by name)")
	fs.StringVar(&f.devices, "devices", "", "run on several GPUs at once, one worker process per GPU, results merged: all, or indices such as 0,1")
	fs.BoolVar(&f.strict, "strict", false, "run perfgate doctor's checks first: refuse (exit 3) when another process uses the GPU, clocks are held down, MIG is on or the GPU is hot; print its other warnings")
	fs.StringVar(&f.skipUnchangedAgainst, "skip-unchanged-against", "", "a results `file` of the baseline: benchmarks whose kernels' PTX hash (ptx_sha256) is the one of its newest run are not measured but reported as skipped (built-in suites)")
	fs.BoolVar(&f.list, "list", false, "list suites and benchmarks (no GPU needed) and exit")
	fs.BoolVar(&f.fast, "fast", false, "smoke-run budgets: 50 ms minimum and 1 s maximum per benchmark (noisier numbers)")
	fs.DurationVar(&f.maxTime, "max-time", 0, "cap on the time spent measuring one benchmark (default 15s; 1s with --fast)")
}

func runRun(ctx context.Context, args []string, e *env) error {
	var f runFlags
	fs := newFlagSet(e, "run", "[--suite NAME[,NAME]] [--filter REGEX] [--op NAME[,NAME]] [--size ci|small|medium|large] [--fast] [--dtype fp32,fp16,bf16] [--max-time 15s] [--rounds R | --devices all|0,1] [--out results.json|DIR/|'results-{round}.json'] | --config .perfgate.yml [--suite NAME] [--rounds R] | --list")
	f.register(fs, e)
	f.meta.register(fs, e)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("run: unexpected argument %q (suites go in --suite)", fs.Arg(0))
	}
	if note := f.defaults(ctx, flagsGiven(fs), e); note != "" && !f.list {
		fmt.Fprintln(e.Stderr, "perfgate: "+note)
	}
	o, err := f.options(e)
	if err != nil {
		return err
	}
	paths, err := f.outPaths()
	if err != nil {
		return err
	}
	if f.list {
		return listSuites(e.Stdout, o.Kernel, o.Suites)
	}
	o.Meta = func() (model.Run, error) { return f.meta.resolve(ctx, e, time.Now()) }
	rs, err := newRunner(e).Run(ctx, o)
	if err != nil {
		return err
	}
	return writeRoundResults(e, paths, rs)
}

// defaults fills in what perfgate run runs when neither --suite nor
// --config names it: the suites of the .perfgate.yml config.Find finds (not
// for --list), else the default built-in suites (kernels.DefaultSuites) at
// size ci unless --size (or PERFGATE_SIZE) names another. It returns a note
// saying which, or "".
func (f *runFlags) defaults(ctx context.Context, given map[string]bool, e *env) string {
	if f.suites != "" || f.config != "" {
		return ""
	}
	if path, found := config.Find(ctx, ""); found && !f.list {
		f.config = path
		return "no --suite: running the suites of " + path
	}
	if !f.list { // --list lists every suite
		f.suites = strings.Join(kernels.DefaultSuites(), ",")
	}
	if !given["size"] && e.Getenv("PERFGATE_SIZE") == "" {
		f.size = kernels.SizeCI
	}
	return fmt.Sprintf("no --suite: running the default built-in suites (%s) at size %s", f.suites, f.size)
}

// outPaths checks --rounds and returns the files --out names.
func (f *runFlags) outPaths() ([]string, error) {
	if f.rounds < 1 || f.rounds > runner.MaxRounds {
		return nil, usageError("--rounds: must be from 1 to %d, got %d", runner.MaxRounds, f.rounds)
	}
	if f.skipPrepare && f.config == "" {
		return nil, usageError("--skip-prepare: applies to --config runs only")
	}
	return runner.Paths(f.out, f.rounds)
}

// options checks the flags and turns them into the runner's options (but
// the run block, which f.meta resolves later).
func (f *runFlags) options(e *env) (runner.Options, error) {
	o := runner.Options{Suites: splitList(f.suites), Rounds: f.rounds, SkipPrepare: f.skipPrepare, Strict: f.strict, SkipUnchangedAgainst: f.skipUnchangedAgainst,
		Kernel: kernels.Options{Size: f.size, Fast: f.fast, MaxTime: f.maxTime, CacheDir: e.Getenv("PERFGATE_CACHE"),
			Worker: workerCommand(), Ops: splitList(f.ops), DTypes: splitList(f.dtypes)}}
	if f.filter != "" {
		re, err := regexp.Compile(f.filter)
		if err != nil {
			return o, usageError("--filter: %v", err)
		}
		o.Kernel.Filter = re
	}
	var oe *kernels.OptionError
	if err := kernels.ValidateOptions(o.Kernel); errors.As(err, &oe) {
		return o, usageError("--%s: %s", oe.Option, oe.Msg)
	} else if err != nil {
		return o, usageError("%v", err)
	}
	if f.config != "" && !f.list {
		if f.filter != "" || f.ops != "" || f.dtypes != "" || f.maxTime != 0 || f.skipUnchangedAgainst != "" {
			return o, usageError("--config: --filter, --op, --dtype, --max-time and --skip-unchanged-against apply to built-in suites; set them per suite in %s", f.config)
		}
		cfg, err := config.Load(f.config)
		if err != nil {
			return o, err
		}
		o.Config = cfg
	} else if f.devices != "" && !f.list {
		if f.rounds > 1 {
			return o, usageError("--devices: not with --rounds (run the rounds on each GPU in turn)")
		}
		all, err := listDevices()
		if err != nil {
			return o, err
		}
		if o.Devices, err = runner.ParseDevices(f.devices, all); err != nil {
			return o, err
		}
	}
	return o, nil
}

// listSuites lists the built-in suites named in only (all when empty) as o
// selects their benchmarks.
func listSuites(w io.Writer, o kernels.Options, only []string) error {
	if len(only) > 0 {
		if err := runner.CheckSuites(only); err != nil {
			return err
		}
	}
	for _, s := range kernels.ListFor(o) {
		if len(only) == 0 || slices.Contains(only, s.Name) {
			fmt.Fprintf(w, "%s: %s\n", s.Name, s.Description)
			for _, b := range s.Benchmarks {
				fmt.Fprintf(w, "  %s\n", b)
			}
		}
	}
	return nil
}

// writeRoundResults writes one results file per round, or the one document
// to standard output.
func writeRoundResults(e *env, paths []string, rs []*model.Results) error {
	for i, r := range rs {
		if paths[i] == "" || paths[i] == "-" {
			if err := model.Encode(e.Stdout, r); err != nil {
				return err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(paths[i]), 0o755); err != nil {
			return &model.InfraError{Op: "create " + filepath.Dir(paths[i]), Err: err}
		}
		if err := model.WriteFile(paths[i], r); err != nil {
			return &model.InfraError{Op: "write " + paths[i], Err: err}
		}
		fmt.Fprintf(e.Stderr, "perfgate: wrote %d benchmarks to %s\n", len(r.Benchmarks), paths[i])
	}
	return nil
}

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
	if note := f.defaults(flagsGiven(fs), e); note != "" && !f.list {
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
		var only []string
		if f.suites != "" {
			if only, err = f.suiteNames(); err != nil {
				return err
			}
		}
		printSuiteList(e.Stdout, o, only)
		return nil
	}
	if f.config != "" {
		return f.runConfig(ctx, e, paths)
	}
	names, err := f.suiteNames()
	if err != nil {
		return err
	}
	if err := checkSelection(names, o); err != nil {
		return err
	}
	if err := f.preRun(ctx, e); err != nil {
		return err
	}
	if f.devices != "" {
		if f.rounds > 1 {
			return usageError("-devices: not with --rounds (run the rounds on each GPU in turn)")
		}
		r, err := f.meta.resolve(ctx, e, time.Now())
		if err != nil {
			return err
		}
		return f.runOnDevices(ctx, e, fs, r, paths[0])
	}
	host, gpu := kernels.CountModes(names, o)
	if !kernels.CUDA && host == 0 {
		return kernels.ErrNoCUDA
	}
	r, err := f.meta.resolve(ctx, e, time.Now())
	if err != nil {
		return err
	}
	if f.rounds > 1 {
		rs, err := runRounds(ctx, e, roundsSpec{rounds: f.rounds, units: f.builtinUnits(names, o), run: r, prefix: "r"})
		if err != nil {
			return err
		}
		return writeRoundResults(e, paths, rs)
	}
	run := runGPUSuites
	if gpu == 0 || !kernels.CUDA {
		run = runHostSuites // no GPU needed, or none in this binary: the host benchmarks alone
	}
	bs, runEnv, err := run(ctx, e, names, o)
	if err != nil {
		return err
	}
	r.Env = runEnv
	return writeRoundResults(e, paths, []*model.Results{{Schema: model.Schema, Run: r, Benchmarks: bs}})
}

// preRun runs perfgate doctor's checks before measuring with --strict.
func (f *runFlags) preRun(ctx context.Context, e *env) error {
	if !f.strict {
		return nil
	}
	w, err := preRunChecks(ctx, preRunStrict)
	printPreRun(e.Stderr, w)
	return err
}

// defaults fills in what perfgate run runs when neither --suite nor
// --config names it: the suites of ./.perfgate.yml when there is one (not
// for --list), else the default built-in suites (kernels.DefaultSuites) at
// size ci unless --size (or PERFGATE_SIZE) names another. It returns a note
// saying which, or "".
func (f *runFlags) defaults(given map[string]bool, e *env) string {
	if f.suites != "" || f.config != "" {
		return ""
	}
	if _, err := os.Stat(config.DefaultFile); err == nil && !f.list {
		f.config = config.DefaultFile
		return "no --suite: running the suites of " + config.DefaultFile
	}
	if !f.list { // --list lists every suite
		f.suites = strings.Join(kernels.DefaultSuites(), ",")
	}
	if !given["size"] && e.Getenv("PERFGATE_SIZE") == "" {
		f.size = kernels.SizeCI
	}
	return fmt.Sprintf("no --suite: running the default built-in suites (%s) at size %s", f.suites, f.size)
}

// outPaths checks --rounds and returns the files --out names (roundPaths).
func (f *runFlags) outPaths() ([]string, error) {
	if f.rounds < 1 || f.rounds > maxRounds {
		return nil, usageError("-rounds: must be from 1 to %d, got %d", maxRounds, f.rounds)
	}
	if f.skipPrepare && f.config == "" {
		return nil, usageError("-skip-prepare: applies to --config runs only")
	}
	return roundPaths(f.out, f.rounds)
}

// builtinUnits are the processes of one round of built-in suites: one per
// suite that the selection leaves benchmarks in, with the same flags.
func (f *runFlags) builtinUnits(names []string, o kernels.Options) []roundUnit {
	var units []roundUnit
	for _, s := range kernels.ListFor(o) {
		if !slices.Contains(names, s.Name) || len(s.Benchmarks) == 0 {
			continue
		}
		args := []string{"run", "--suite", s.Name, "--size", f.size}
		if f.filter != "" {
			args = append(args, "--filter", f.filter)
		}
		if f.ops != "" {
			args = append(args, "--op", f.ops)
		}
		if f.dtypes != "" {
			args = append(args, "--dtype", f.dtypes)
		}
		if f.maxTime != 0 {
			args = append(args, "--max-time", f.maxTime.String())
		}
		if f.fast {
			args = append(args, "--fast")
		}
		units = append(units, roundUnit{name: s.Name, args: args})
	}
	slices.SortStableFunc(units, func(a, b roundUnit) int { return slices.Index(names, a.name) - slices.Index(names, b.name) })
	return units
}

// writeRoundResults writes one results file per round.
func writeRoundResults(e *env, paths []string, rs []*model.Results) error {
	for i, r := range rs {
		if dir := filepath.Dir(paths[i]); paths[i] != "" && paths[i] != "-" {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return &model.InfraError{Op: "create " + dir, Err: err}
			}
		}
		if err := writeRunResults(e, paths[i], r); err != nil {
			return err
		}
	}
	return nil
}

// runConfig runs the suites of a .perfgate.yml (all of them, or those
// --suite names) and writes one results document.
func (f *runFlags) runConfig(ctx context.Context, e *env, paths []string) error {
	if f.filter != "" || f.ops != "" || f.dtypes != "" || f.maxTime != 0 {
		return usageError("-config: --filter, --op, --dtype and --max-time apply to built-in suites; set them per suite in %s", f.config)
	}
	cfg, err := config.Load(f.config)
	if err != nil {
		return err
	}
	if err := f.preRun(ctx, e); err != nil {
		return err
	}
	o := suiteRunOptions{Fast: f.fast}
	if names := splitList(f.suites); len(names) > 0 {
		quoted := make([]string, len(names))
		for i, n := range names {
			quoted[i] = regexp.QuoteMeta(n)
		}
		o.Only = regexp.MustCompile("^(" + strings.Join(quoted, "|") + ")$")
	}
	r, err := f.meta.resolve(ctx, e, time.Now())
	if err != nil {
		return err
	}
	if f.rounds > 1 {
		o.SkipPrepare = f.skipPrepare
		rs, err := runConfigRounds(ctx, e, cfg, o, roundsSpec{rounds: f.rounds, run: r, prefix: "r"})
		if err != nil {
			return err
		}
		if len(rs) == 0 {
			return usageError("-suite: %q selects no suite of %s", f.suites, f.config)
		}
		return writeRoundResults(e, paths, rs)
	}
	o.SkipPrepare = f.skipPrepare
	bs, runEnv, err := runConfigSuites(ctx, e, cfg, o)
	if err != nil {
		return err
	}
	if len(bs) == 0 {
		return usageError("-suite: %q selects no suite of %s", f.suites, f.config)
	}
	r.Env = runEnv
	return writeRoundResults(e, paths, []*model.Results{{Schema: model.Schema, Run: r, Benchmarks: bs}})
}

// options validates the measurement flags and turns them into kernels.Options.
func (f *runFlags) options(e *env) (kernels.Options, error) {
	o := kernels.Options{Size: f.size, Fast: f.fast, MaxTime: f.maxTime, CacheDir: e.Getenv("PERFGATE_CACHE"),
		Worker: workerCommand()}
	if f.filter != "" {
		re, err := regexp.Compile(f.filter)
		if err != nil {
			return o, usageError("-filter: %v", err)
		}
		o.Filter = re
	}
	if f.dtypes != "" {
		o.DTypes = splitList(f.dtypes)
	}
	o.Ops = splitList(f.ops)
	var oe *kernels.OptionError
	if err := kernels.ValidateOptions(o); errors.As(err, &oe) {
		return o, usageError("-%s: %s", oe.Option, oe.Msg)
	} else if err != nil {
		return o, usageError("%v", err)
	}
	return o, nil
}

// suiteNames checks --suite against the built-in suites.
func (f *runFlags) suiteNames() ([]string, error) {
	names := splitList(f.suites)
	if len(names) == 0 {
		return nil, usageError("-suite: name at least one suite (%s), or use --list", strings.Join(kernels.SuiteNames(), ", "))
	}
	for _, n := range names {
		if !slices.Contains(kernels.SuiteNames(), n) {
			return nil, usageError("-suite: unknown suite %q (built-in suites: %s)", n, strings.Join(kernels.SuiteNames(), ", "))
		}
	}
	return names, nil
}

// checkSelection fails when --filter and --dtype leave no benchmark of the
// named suites, before any GPU work: an empty results file would pass a gate.
func checkSelection(names []string, o kernels.Options) error {
	for _, s := range kernels.ListFor(o) {
		if slices.Contains(names, s.Name) && len(s.Benchmarks) > 0 {
			return nil
		}
	}
	return usageError("-filter, -op, -dtype: they select no benchmark of %s (perfgate run --list with the same flags shows what they select)", strings.Join(names, ", "))
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// runGPUSuites opens the GPU, runs the named built-in suites in order with
// progress on stderr, and returns their benchmarks and the environment
// fingerprint for run.env. The config-file runner calls it too.
func runGPUSuites(ctx context.Context, e *env, names []string, o kernels.Options) ([]model.Benchmark, map[string]string, error) {
	s, err := kernels.Open(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer s.Close()
	p := newProgress(e.Stderr)
	o.Progress = p.line
	var all []model.Benchmark
	for _, name := range names {
		bs, err := s.RunSuite(ctx, name, o)
		all = append(all, bs...)
		if err != nil {
			p.done()
			return nil, nil, &model.InfraError{Op: "run suite " + name, Err: err}
		}
	}
	p.done()
	env := s.Env()
	env[kernels.EnvPerfgate] = buildVersion()
	reportRunHealth(e.Stderr, all)
	return all, env, nil
}

// reportRunHealth says on w how many benchmarks failed and how many were
// flagged for samples dropped at a low SM clock, so neither hides in the file.
func reportRunHealth(w io.Writer, bs []model.Benchmark) {
	var failed, flagged int
	for _, b := range bs {
		if b.Error != "" {
			failed++
		}
		if b.Info["clock_flag"] != "" {
			flagged++
		}
	}
	if failed > 0 {
		fmt.Fprintf(w, "perfgate: %d of %d benchmarks failed (their error is in the results)\n", failed, len(bs))
	}
	if flagged > 0 {
		fmt.Fprintf(w, "perfgate: %d of %d benchmarks dropped more than 5%% of their samples for a low SM clock "+
			"(info.clock_flag): the GPU was throttling or not yet boosted; see perfgate doctor\n", flagged, len(bs))
	}
}

// writeRunResults writes results to path atomically, or to stdout.
func writeRunResults(e *env, path string, r *model.Results) error {
	if path == "" || path == "-" {
		return model.Encode(e.Stdout, r)
	}
	if err := model.WriteFile(path, r); err != nil {
		return &model.InfraError{Op: "write " + path, Err: err}
	}
	fmt.Fprintf(e.Stderr, "perfgate: wrote %d benchmarks to %s\n", len(r.Benchmarks), path)
	return nil
}

// printSuiteList lists the suites named in only (all when empty) as o selects their benchmarks.
func printSuiteList(w io.Writer, o kernels.Options, only []string) {
	for _, s := range kernels.ListFor(o) {
		if len(only) > 0 && !slices.Contains(only, s.Name) {
			continue
		}
		fmt.Fprintf(w, "%s: %s\n", s.Name, s.Description)
		for _, b := range s.Benchmarks {
			fmt.Fprintf(w, "  %s\n", b)
		}
	}
}

// A progress prints one line per finished benchmark; on a terminal it also
// keeps a live count on the last line.
type progress struct {
	w   io.Writer
	tty bool
	n   int
}

func newProgress(w io.Writer) *progress {
	p := &progress{w: w}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.tty = true
		}
	}
	return p
}

func (p *progress) line(s string) {
	p.n++
	if !p.tty {
		fmt.Fprintln(p.w, s)
		return
	}
	fmt.Fprintf(p.w, "\r\033[K%s\n\033[1m%d benchmarks done, running…\033[0m", s, p.n)
}

func (p *progress) done() {
	if p.tty {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

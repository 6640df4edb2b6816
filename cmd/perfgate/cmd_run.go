package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/model"
)

func init() {
	commands.Register(&cli.Command{Name: "run", Run: runRun})
}

// registerRunFlags adds perfgate run's flags to fs, into s.
func registerRunFlags(fs interface {
	StringVar(*string, string, string, string)
	BoolVar(*bool, string, bool, string)
	DurationVar(*time.Duration, string, time.Duration, string)
	IntVar(*int, string, int, string)
}, e *cli.Env, s *runner.Settings) {
	fs.StringVar(&s.Suites, "suite", e.GetenvOr("PERFGATE_SUITE", ""), "comma-separated built-in suites: "+strings.Join(kernels.SuiteNames(), ", ")+" (env PERFGATE_SUITE; default: the suites of ./.perfgate.yml if it exists, else "+strings.Join(kernels.DefaultSuites(), ",")+" at --size ci)")
	fs.StringVar(&s.Filter, "filter", "", "run only benchmarks whose suite/name matches this regular expression")
	fs.StringVar(&s.Ops, "op", "", "comma-separated operations to run (the first name segment: layernorm, cublas, add, …); with --filter, both must match")
	fs.StringVar(&s.Size, "size", e.GetenvOr("PERFGATE_SIZE", kernels.SizeMedium), "size preset: "+strings.Join(kernels.Sizes, ", ")+" (env PERFGATE_SIZE; ci without --suite)")
	fs.StringVar(&s.DTypes, "dtype", "", "comma-separated element types to run: "+strings.Join(kernels.DTypes, ", ")+" (default: all)")
	fs.StringVar(&s.Out, "out", "", "write results v1 to this file (default: standard output); with --rounds, a directory (DIR/round-N.json) or a `pattern` with {round}")
	fs.IntVar(&s.Rounds, "rounds", 1, "run every suite in this many separate processes (rounds, in a rotated suite order); each round is one results file. Default 1: the quickest look while you work; a gate measures more (the action runs 3: a 15% slowdown at a 3% run-to-run spread is caught 98% of the time against 47% with 1, docs/verdicts.md)")
	fs.BoolVar(&s.SkipPrepare, "skip-prepare", false, "with --config: do not run the prepare commands (perfgate sets it for the processes of --rounds, after preparing once)")
	fs.StringVar(&s.Config, "config", "", "run the suites this .perfgate.yml declares (--suite then selects among them by name)")
	fs.StringVar(&s.Devices, "devices", "", "run on several GPUs at once, one worker process per GPU, results merged: all, or indices such as 0,1")
	fs.BoolVar(&s.Strict, "strict", false, "run perfgate doctor's checks first: refuse (exit 3) when another process uses the GPU, clocks are held down, MIG is on or the GPU is hot; print its other warnings")
	fs.StringVar(&s.SkipUnchanged, "skip-unchanged-against", "", "results `files` of the baseline (comma-separated): benchmarks whose kernels' PTX hash (ptx_sha256) is the one of their newest run are not measured but reported as skipped (built-in suites, and builtin suites of --config)")
	fs.BoolVar(&s.List, "list", false, "list suites and benchmarks (no GPU needed) and exit")
	fs.BoolVar(&s.Fast, "fast", false, "smoke-run budgets: 50 ms minimum and 1 s maximum per benchmark (noisier numbers)")
	fs.DurationVar(&s.MaxTime, "max-time", 0, "cap on the time spent measuring one benchmark (default 15s; 1s with --fast)")
	fs.StringVar(&s.Reference, "reference", "", "after the built-in suites, measure their PyTorch references in the same run and set speedup_vs_torch on each benchmark that has one: torch (python3 must import torch, else exit 2) or auto (without PyTorch, run without them); docs/gpu.md, \"In-run PyTorch references\"")
	fs.StringVar(&s.Pace, "pace", e.GetenvOr("PERFGATE_PACE", ""), "spacing of samples under the GPU's power limit: auto (the default: idle after each sample once NVML reports power or thermal throttling, retaking throttled samples), off, or a fixed idle `ratio` of each sample's GPU time (env PERFGATE_PACE)")
}

func runRun(ctx context.Context, args []string, e *cli.Env) error {
	s := runner.Settings{CacheDir: e.Getenv("PERFGATE_CACHE"), Worker: workerCommand()}
	var meta runMetaFlags
	fs := cli.NewFlagSet(e, "run", "[--suite NAME[,NAME]] [--filter REGEX] [--op NAME[,NAME]] [--size ci|small|medium|large] [--fast] [--dtype fp32,fp16,bf16] [--max-time 15s] [--rounds R | --devices all|0,1] [--out results.json|DIR/|'results-{round}.json'] | --config .perfgate.yml [--suite NAME] [--rounds R] | --list")
	registerRunFlags(fs, e, &s)
	meta.register(fs, e)
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.UsageErrorf("run: unexpected argument %q (suites go in --suite)", fs.Arg(0))
	}
	if note := s.Defaults(ctx, cli.FlagsGiven(fs)["size"] || e.Getenv("PERFGATE_SIZE") != ""); note != "" && !s.List {
		fmt.Fprintln(e.Stderr, "perfgate: "+note)
	}
	o, err := s.Options(listDevices)
	if err != nil {
		return err
	}
	paths, err := s.OutPaths()
	if err != nil {
		return err
	}
	if s.List {
		return runner.List(e.Stdout, o)
	}
	o.Meta = func() (model.Run, error) { return meta.resolve(ctx, e, time.Now()) }
	r := newRunner(e)
	rs, err := r.Run(ctx, o)
	if err != nil {
		return err
	}
	return r.WriteRounds(e.Stdout, paths, rs)
}

package main

import (
	"context"
	"flag"
	"fmt"
	"os/exec"
	"strings"
	"time"
	"unicode"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/internal/childspec"
	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/kernels/measure"
	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/model"
)

// registerRunFlags adds perfgate run's flags to fs, into s.
func registerRunFlags(fs interface {
	StringVar(*string, string, string, string)
	BoolVar(*bool, string, bool, string)
	DurationVar(*time.Duration, string, time.Duration, string)
	IntVar(*int, string, int, string)
}, e *cli.Env, s *runner.Settings) {
	env := func(name string) string { return runner.RunSetting(name).Env }
	fs.StringVar(&s.Suites, "suite", e.GetenvOr(env("suite"), ""), "comma-separated built-in suites: "+strings.Join(kernels.SuiteNames(), ", ")+" (env "+env("suite")+"; default: the suites of ./.perfgate.yml if it exists, else "+strings.Join(kernels.DefaultSuites(), ",")+" at --size ci)")
	fs.StringVar(&s.Filter, "filter", "", "run only benchmarks whose suite/name matches this regular expression")
	fs.StringVar(&s.Ops, "op", "", "comma-separated operations to run (the first name segment: layernorm, cublas, add, …); with --filter, both must match")
	fs.StringVar(&s.Size, "size", e.GetenvOr(env("size"), kernels.SizeMedium), "size preset: "+strings.Join(kernels.Sizes, ", ")+" (env "+env("size")+"; ci without --suite)")
	fs.StringVar(&s.DTypes, "dtype", "", "comma-separated element types to run: "+strings.Join(kernels.DTypes, ", ")+" (default: all)")
	fs.StringVar(&s.Out, "out", "", "write results v1 to this file (default: standard output); with --rounds, a directory (DIR/round-N.json) or a `pattern` with {round}")
	fs.IntVar(&s.Rounds, "rounds", 1, fmt.Sprintf("run every suite in this many separate processes (rounds, in a rotated suite order); each round is one results file. Default 1: the quickest look while you work; a gate measures more (the action runs %d: a 15%% slowdown at a 3%% run-to-run spread is caught 98%% of the time against 47%% with 1, docs/verdicts.md)", runner.DefaultActionRounds))
	fs.BoolVar(&s.SkipPrepare, "skip-prepare", false, "with --config: do not run the prepare commands (perfgate sets it for the processes of --rounds, after preparing once)")
	fs.StringVar(&s.Config, "config", "", "run the suites this .perfgate.yml declares (--suite then selects among them by name)")
	fs.StringVar(&s.Devices, "devices", "", "run on several GPUs at once, one worker process per GPU, results merged: all, or indices such as 0,1")
	fs.BoolVar(&s.Strict, "strict", false, "run perfgate doctor's checks first: refuse (exit 3) when another process uses the GPU, clocks are held down, MIG is on or the GPU is hot; print its other warnings")
	fs.StringVar(&s.SkipUnchanged, "skip-unchanged-against", "", "results `files` of the baseline (comma-separated): benchmarks whose kernels' PTX hash (ptx_sha256) is the one of their newest run are not measured but reported as skipped (built-in suites, and builtin suites of --config)")
	fs.BoolVar(&s.List, "list", false, "list suites and benchmarks (no GPU needed) and exit")
	fs.BoolVar(&s.Fast, "fast", false, "smoke-run budgets: "+spaced(measure.FastMinGPU)+" minimum and "+spaced(measure.FastMaxTime)+" maximum per benchmark (noisier numbers)")
	fs.DurationVar(&s.MaxTime, "max-time", 0, fmt.Sprintf("cap on the time spent measuring one benchmark (default %v; %v with --fast)", measure.DefaultMaxTime, measure.FastMaxTime))
	fs.StringVar(&s.Reference, "reference", "", "after the built-in suites, measure their PyTorch references in the same run and set speedup_vs_torch on each benchmark that has one: torch (python3 must import torch, else exit 2) or auto (without PyTorch, run without them); docs/gpu.md, \"In-run PyTorch references\"")
	fs.StringVar(&s.Pace, "pace", e.GetenvOr(env("pace"), ""), "spacing of samples under the GPU's power limit: auto (the default: idle after each sample once NVML reports power or thermal throttling, retaking throttled samples), off, or a fixed idle `ratio` of each sample's GPU time (env "+env("pace")+")")
}

// spaced writes d as the help's prose does: "50 ms", "1 s".
func spaced(d time.Duration) string {
	s := d.String()
	i := strings.IndexFunc(s, unicode.IsLetter)
	return s[:i] + " " + s[i:]
}

// startChild is the runner's Starter: this binary's perfgate run, handed
// c as a serialised spec (--spec JSON, readChildSpec), not as re-built
// flags; the line names c as the run flags that would give it.
func startChild(ctx context.Context, c runner.Child) (*exec.Cmd, string, error) {
	spec, err := childspec.Encode(runner.ChildVersion, c)
	if err != nil {
		return nil, "", &model.InfraError{Op: "encode the spec of a perfgate process", Err: err}
	}
	cmd, err := selfCommand(ctx, []string{"run", "--spec", string(spec)})
	return cmd, childLine(c.Settings), err
}

// childLineOrder is the order in which childLine names flags (the order
// of the flag lists runner built before the spec); flags it does not list
// follow, by name.
var childLineOrder = []string{"config", "suite", "skip-prepare", "size", "filter", "op", "dtype", "max-time", "fast", "pace", "skip-unchanged-against", "reference", "strict"}

// childLine is "perfgate run" with the flags that give s, less the output
// file: each setting s holds (not zero), once.
func childLine(s runner.Settings) string {
	var d runner.Settings
	fs := flag.NewFlagSet("", flag.ContinueOnError)
	registerRunFlags(fs, &cli.Env{Getenv: func(string) string { return "" }}, &d)
	d = s // the flags' values are d's fields
	line, named := []string{"perfgate", "run"}, map[string]bool{"out": true}
	add := func(f *flag.Flag) {
		if named[f.Name] {
			return
		}
		named[f.Name] = true
		switch v := f.Value.String(); v {
		case "", "0", "0s", "false":
		case "true":
			line = append(line, cli.SpellFlag(f.Name))
		default:
			line = append(line, cli.SpellFlag(f.Name), v)
		}
	}
	for _, name := range childLineOrder {
		add(fs.Lookup(name))
	}
	fs.VisitAll(add)
	return strings.Join(line, " ")
}

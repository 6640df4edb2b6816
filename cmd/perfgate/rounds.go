package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

// Rounds replicate a run across processes. Samples of one process share its
// state (clocks, placement, L2, the launch path), so the verdict needs the
// candidate measured in several processes: perfgate starts itself once per
// suite and round, and every round becomes its own results document (its
// own run.id, the job's run.group), never merged into one run.

// defaultActionRounds is how many rounds the action runs by default, for
// pull requests and for the baseline branch's pushes alike.
const defaultActionRounds = 3

// maxRounds bounds --rounds and the rounds input.
const maxRounds = 100

// A roundUnit is what one process of a round runs: perfgate with args (no
// --out, no run metadata: runRounds adds them).
type roundUnit struct {
	name string // the suite, for messages
	args []string
}

// A roundsSpec describes a replicated run.
type roundsSpec struct {
	rounds int
	units  []roundUnit // in the first round's order
	// run is the job's run block: round r gets the ID job-<prefix>r and the
	// group run.Group, else the job ID.
	run    model.Run
	prefix string // "r" for rounds, "c" for confirmation rounds
}

// selfCommand returns the command that runs this perfgate binary with args.
// The tests replace it (TestMain) to run the test binary as perfgate.
var selfCommand = func(ctx context.Context, args []string) (*exec.Cmd, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, &model.InfraError{Op: "find the perfgate executable to start the rounds", Err: err}
	}
	return exec.CommandContext(ctx, exe, args...), nil
}

// roundOrder returns the units of round r (0-based): the first round's
// order rotated left by r, so each unit runs early in some rounds and late
// in others and a drift over the job spreads evenly over the suites.
func roundOrder(units []roundUnit, r int) []roundUnit {
	if len(units) == 0 {
		return nil
	}
	k := r % len(units)
	return append(append([]roundUnit(nil), units[k:]...), units[:k]...)
}

// roundID is the run ID of round r (1-based) of job.
func roundID(job, prefix string, r int) string { return fmt.Sprintf("%s-%s%d", job, prefix, r) }

// runRounds runs every unit once per round, each in a fresh perfgate
// process, and returns one results document per round.
func runRounds(ctx context.Context, e *env, spec roundsSpec) ([]*model.Results, error) {
	tmp, err := os.MkdirTemp("", "perfgate-rounds-")
	if err != nil {
		return nil, &model.InfraError{Op: "create a temporary directory for the rounds", Err: err}
	}
	defer os.RemoveAll(tmp)
	var out []*model.Results
	for r := range spec.rounds {
		run := spec.run
		run.ID, run.Group = roundID(spec.run.ID, spec.prefix, r+1), first(spec.run.Group, spec.run.ID)
		doc, err := runRound(ctx, e, spec.units, r, run, tmp, fmt.Sprintf("round %d/%d", r+1, spec.rounds))
		if err != nil {
			return nil, err
		}
		out = append(out, doc)
	}
	return out, nil
}

// runRound runs round r (0-based) of units, each in its own perfgate
// process in roundOrder, with scratch files in dir, and returns the round's
// results document: run as its run block, started_at when its first process
// started, the environment the processes reported, and the benchmarks in
// the units' first-round order. label names the round in messages.
func runRound(ctx context.Context, e *env, units []roundUnit, r int, run model.Run, dir, label string) (*model.Results, error) {
	started := time.Now()
	byUnit := map[string]*model.Results{}
	for i, u := range roundOrder(units, r) {
		fmt.Fprintf(e.Stderr, "perfgate: %s: %s (process %d of %d)\n", label, u.name, i+1, len(units))
		path := filepath.Join(dir, fmt.Sprintf("%s-%d-%d.json", run.ID, r+1, i))
		res, err := runUnit(ctx, e, u, path, run)
		if err != nil {
			return nil, fmt.Errorf("%s, %s: %w", label, u.name, err)
		}
		byUnit[u.name] = res
	}
	run.StartedAt, run.Env = started.UTC(), nil
	doc := &model.Results{Schema: model.Schema, Run: run, Benchmarks: []model.Benchmark{}}
	for _, u := range units {
		res := byUnit[u.name]
		doc.Benchmarks = append(doc.Benchmarks, res.Benchmarks...)
		doc.Run.Env = mergeRoundEnv(doc.Run.Env, res.Run.Env)
	}
	if err := checkBuiltResults(doc); err != nil {
		return nil, errors.Join(fmt.Errorf("%s: invalid results", label), err)
	}
	return doc, nil
}

// runUnit starts perfgate for one unit and loads the results it wrote to
// path. Its standard error (progress, messages) goes to e.Stderr; a
// non-zero exit keeps the child's exit code.
func runUnit(ctx context.Context, e *env, u roundUnit, path string, run model.Run) (*model.Results, error) {
	args := append(append([]string(nil), u.args...), "--out", path)
	args = append(args, metaArgs(run)...)
	cmd, err := selfCommand(ctx, args)
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = e.Stderr, e.Stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() > 0 {
			return nil, &exitError{code: ee.ExitCode(), err: fmt.Errorf("perfgate %s exited with status %d", strings.Join(u.args, " "), ee.ExitCode())}
		}
		return nil, &model.InfraError{Op: "run perfgate " + strings.Join(u.args, " "), Err: err}
	}
	return model.Load(path)
}

// metaArgs are the run-metadata flags that give a child the job's run
// block, so it needs neither git nor the GitHub environment. The parent
// replaces the child's run block anyway.
func metaArgs(r model.Run) []string {
	args := []string{"--run-id", r.ID + "-part", "--repo", r.Repo, "--commit", r.Commit, "--branch", r.Branch,
		"--event", r.Event, "--testbed", r.Testbed}
	if r.PR > 0 {
		args = append(args, "--pr", strconv.Itoa(r.PR))
	}
	return args
}

// mergeRoundEnv adds the keys of b that a lacks: a round's processes ran on
// one machine, and the first one to describe it wins.
func mergeRoundEnv(a, b map[string]string) map[string]string {
	for k, v := range b {
		if a == nil {
			a = map[string]string{}
		}
		if _, ok := a[k]; !ok {
			a[k] = v
		}
	}
	return a
}

// roundPaths returns the files --out names for rounds results documents:
// "" or "-" is standard output (one round only); a path containing
// {round} gets the round number, zero-padded so the files sort in round
// order; an existing directory, or a path ending in a slash, gets
// round-{round}.json inside. Any other path holds one round only.
func roundPaths(out string, rounds int) ([]string, error) {
	isDir := strings.HasSuffix(out, "/") || strings.HasSuffix(out, string(os.PathSeparator))
	if st, err := os.Stat(out); err == nil && st.IsDir() {
		isDir = true
	}
	pattern := out
	switch {
	case strings.Contains(out, "{round}"):
	case isDir && out != "":
		pattern = filepath.Join(out, "round-{round}.json")
	case rounds == 1:
		return []string{out}, nil
	case out == "" || out == "-":
		return nil, usageError("-out: --rounds %d writes %d results files, not standard output: name a directory (--out results/) or a pattern with {round} (--out results-{round}.json)", rounds, rounds)
	default:
		return nil, usageError("-out: --rounds %d writes %d results files: name a directory (--out %s/) or a pattern with {round} (--out %s)",
			rounds, rounds, strings.TrimSuffix(out, ".json"), roundPattern(out))
	}
	width := len(strconv.Itoa(rounds))
	paths := make([]string, rounds)
	for r := range rounds {
		paths[r] = strings.ReplaceAll(pattern, "{round}", fmt.Sprintf("%0*d", width, r+1))
	}
	return paths, nil
}

// roundPattern suggests a {round} pattern for a single file name.
func roundPattern(out string) string {
	ext := filepath.Ext(out)
	return strings.TrimSuffix(out, ext) + "-{round}" + ext
}

package runner

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
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// Rounds replicate a run across processes. Samples of one process share its
// state (clocks, placement, L2, the launch path), so the verdict needs the
// candidate measured in several processes: perfgate starts itself once per
// suite and round, and every round becomes its own results document (its
// own run.id, the job's run.group), never merged into one run.

// DefaultActionRounds is how many rounds the action runs by default, for
// pull requests and for the baseline branch's pushes alike.
const DefaultActionRounds = 3

// MaxRounds bounds --rounds and the rounds input.
const MaxRounds = 100

// A Unit is what one process of a round runs: perfgate run as Child says
// (no output file, no run block: the round adds them).
type Unit struct {
	Name  string // the suite, for messages
	Child Child
}

// A Spec describes a replicated run.
type Spec struct {
	Rounds int
	Units  []Unit // in the first round's order
	// Run is the job's run block: round r gets the ID <Run.ID>-<Prefix>r
	// and the group Run.Group, else Run.ID.
	Run    model.Run
	Prefix string // "r" for rounds, "c" for confirmation rounds
}

// Order returns the units of round r (0-based): the first round's order
// rotated left by r, so each unit runs early in some rounds and late in
// others and a drift over the job spreads evenly over the suites.
func Order(units []Unit, r int) []Unit {
	if len(units) == 0 {
		return nil
	}
	k := r % len(units)
	return append(append([]Unit(nil), units[k:]...), units[:k]...)
}

// RoundID is the run ID of round r (1-based) of job.
func RoundID(job, prefix string, r int) string { return fmt.Sprintf("%s-%s%d", job, prefix, r) }

// RoundRun is the run block of round r (1-based) of the job whose run block
// is job: the ID <job.ID>-<prefix>r in the group job.Group, else job.ID.
func RoundRun(job model.Run, prefix string, r int) model.Run {
	run := job
	run.ID, run.Group = RoundID(job.ID, prefix, r), job.Group
	if run.Group == "" {
		run.Group = job.ID
	}
	return run
}

// Rounds runs every unit once per round, each in a fresh perfgate process,
// and returns one results document per round.
func (r *Runner) Rounds(ctx context.Context, spec Spec) ([]*model.Results, error) {
	tmp, err := os.MkdirTemp("", "perfgate-rounds-")
	if err != nil {
		return nil, &model.InfraError{Op: "create a temporary directory for the rounds", Err: err}
	}
	defer os.RemoveAll(tmp)
	var out []*model.Results
	for i := range spec.Rounds {
		run := RoundRun(spec.Run, spec.Prefix, i+1)
		doc, err := r.Round(ctx, spec.Units, i, run, tmp, fmt.Sprintf("round %d/%d", i+1, spec.Rounds))
		if err != nil {
			return nil, err
		}
		out = append(out, doc)
	}
	return out, nil
}

// Round runs round i (0-based) of units, each in its own perfgate process
// in Order, with scratch files in dir, and returns the round's results
// document: run as its run block, started_at when its first process
// started, the environment the processes reported, and the benchmarks in
// the units' first-round order. label names the round in messages.
func (r *Runner) Round(ctx context.Context, units []Unit, i int, run model.Run, dir, label string) (*model.Results, error) {
	started := time.Now()
	byUnit := map[string]*model.Results{}
	for j, u := range Order(units, i) {
		fmt.Fprintf(r.Log, "perfgate: %s: %s (process %d of %d)\n", label, u.Name, j+1, len(units))
		path := filepath.Join(dir, fmt.Sprintf("%s-%d-%d.json", run.ID, i+1, j))
		res, err := r.runUnit(ctx, u, path, run)
		if err != nil {
			return nil, fmt.Errorf("%s, %s: %w", label, u.Name, err)
		}
		byUnit[u.Name] = res
	}
	run.StartedAt, run.Env = started.UTC(), nil
	doc := &model.Results{Schema: model.Schema, Run: run, Benchmarks: []model.Benchmark{}}
	for _, u := range units {
		res := byUnit[u.Name]
		doc.Benchmarks = append(doc.Benchmarks, res.Benchmarks...)
		doc.Run.Env = mergeEnv(doc.Run.Env, res.Run.Env)
	}
	if err := Validate(doc); err != nil {
		return nil, errors.Join(fmt.Errorf("%s: invalid results", label), err)
	}
	return doc, nil
}

// runUnit starts perfgate for one unit and loads the results it wrote to
// path. Its standard error (progress, messages) goes to r.Log. A child that
// exits 2 (bad input) is an input error; any other failure is
// infrastructure.
func (r *Runner) runUnit(ctx context.Context, u Unit, path string, run model.Run) (*model.Results, error) {
	c := u.Child
	c.Out, c.Meta = path, childMeta(run)
	cmd, what, err := r.Start(ctx, c)
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = r.Log, r.Log
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		switch {
		case errors.As(err, &ee) && ee.ExitCode() == 2:
			return nil, &model.InputError{Msg: what + " exited with status 2"}
		case errors.As(err, &ee) && ee.ExitCode() > 0:
			return nil, &model.InfraError{Op: what, Err: fmt.Errorf("exited with status %d", ee.ExitCode())}
		}
		return nil, &model.InfraError{Op: "run " + what, Err: err}
	}
	return resultsjson.Load(path)
}

// mergeEnv adds the keys of b that a lacks: a round's processes ran on
// one machine, and the first one to describe it wins.
func mergeEnv(a, b map[string]string) map[string]string {
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

// Paths returns the files out names for the results documents of rounds:
// "" or "-" is standard output (one round only); a path containing
// {round} gets the round number, zero-padded so the files sort in round
// order; an existing directory, or a path ending in a slash, gets
// round-{round}.json inside. Any other path holds one round only.
func Paths(out string, rounds int) ([]string, error) {
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
		return nil, model.SettingError("out", "%s %d writes %d results files, not standard output: name a directory (%s results/) or a pattern with {round} (%s results-{round}.json)", model.Flag("rounds"), rounds, rounds, model.Flag("out"), model.Flag("out"))
	default:
		return nil, model.SettingError("out", "%s %d writes %d results files: name a directory (%s %s/) or a pattern with {round} (%s %s)", model.Flag("rounds"), rounds, rounds, model.Flag("out"), strings.TrimSuffix(out, ".json"), model.Flag("out"), roundPattern(out))
	}
	width := len(strconv.Itoa(rounds))
	paths := make([]string, rounds)
	for i := range rounds {
		paths[i] = strings.ReplaceAll(pattern, "{round}", fmt.Sprintf("%0*d", width, i+1))
	}
	return paths, nil
}

// roundPattern suggests a {round} pattern for a single file name.
func roundPattern(out string) string {
	ext := filepath.Ext(out)
	return strings.TrimSuffix(out, ext) + "-{round}" + ext
}

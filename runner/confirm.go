package runner

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/tracker/check"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
)

// A Confirmer re-runs regressed benchmarks in fresh perfgate processes
// before a check fails on them (check --confirm, the action's confirm
// input): check.Rerunner. The decision is tracker/confirm's; this only
// runs things.
type Confirmer struct {
	Runner *Runner
	Rounds int
	Config *config.Config // the suites' configuration; nil: built-in suites only
}

var _ check.Rerunner = (*Confirmer)(nil)

// Units returns the processes of one confirmation round: a suite of
// cfg that holds a target runs alone (perfgate run of the config for that
// suite, no prepare: the first rounds prepared this checkout); a built-in
// suite runs only the targets (an exact filter on their names, at a size
// preset that lists them). Targets in neither are returned as skipped,
// with the reason.
func (cf *Confirmer) Units(targets []model.Key) ([]Unit, map[model.Key]string) {
	var units []Unit
	skipped := map[model.Key]string{}
	byUnit := map[string][]string{} // built-in unit name → target names
	child := map[string]Settings{}
	for _, k := range targets {
		if cf.Config != nil && slices.ContainsFunc(cf.Config.Suites, func(s config.Suite) bool { return s.Name == k.Suite }) {
			if _, done := child[k.Suite]; !done {
				child[k.Suite] = Settings{Config: cf.Config.File, Suites: k.Suite, SkipPrepare: true}
				units = append(units, Unit{Name: k.Suite})
			}
			continue
		}
		size := builtinSize(k)
		if size == "" {
			skipped[k] = fmt.Sprintf("suite %s is neither a built-in suite that lists it nor a suite of the configuration", k.Suite)
			continue
		}
		name := k.Suite + " (" + size + ")"
		if _, done := child[name]; !done {
			child[name] = Settings{Suites: k.Suite, Size: size}
			units = append(units, Unit{Name: name})
		}
		byUnit[name] = append(byUnit[name], regexp.QuoteMeta(k.Name))
	}
	for i := range units {
		u := &units[i]
		s := child[u.Name]
		if names := byUnit[u.Name]; len(names) > 0 {
			s.Filter = "^" + regexp.QuoteMeta(s.Suites) + "/(" + strings.Join(names, "|") + ")$"
		}
		u.Child = Child{Settings: s}
	}
	return units, skipped
}

// builtinSize returns the first size preset whose list holds benchmark k
// of a built-in suite, or "".
func builtinSize(k model.Key) string {
	for _, size := range kernels.Sizes {
		for _, s := range kernels.ListFor(kernels.Options{Size: size}) {
			if s.Name == k.Suite && slices.Contains(s.Benchmarks, k.Name) {
				return size
			}
		}
	}
	return ""
}

// ConfirmRun is the run block of confirmation rounds of the candidate's
// job: the same commit, branch, event and testbed, in the candidate's run
// group, with IDs no earlier confirmation used (<job>-<random>-c1 …).
func ConfirmRun(cand model.Run) model.Run {
	r := cand
	if r.Group == "" {
		r.Group = cand.ID
	}
	r.ID = r.Group + "-" + uuid.NewString()[:8]
	return r
}

// Rerun runs the targets in cf.Rounds confirmation rounds of cand's job and
// returns the rounds, holding only the targets' benchmarks, and the targets
// that could not be re-run. No unit to run: no rounds. A failure is said
// on stderr: the regressions then stand (check.Confirm).
func (cf *Confirmer) Rerun(ctx context.Context, targets []model.Key, cand model.Run) ([]*model.Results, map[model.Key]string, error) {
	units, skipped := cf.Units(targets)
	if len(units) == 0 {
		return nil, skipped, nil
	}
	fmt.Fprintf(cf.Runner.Log, "perfgate: confirming %s: re-running %s in %d fresh rounds\n",
		Plural(len(targets), "regression"), unitNames(units), cf.Rounds)
	rs, err := cf.Runner.Rounds(ctx, Spec{Rounds: cf.Rounds, Units: units, Run: ConfirmRun(cand), Prefix: "c"})
	if err != nil {
		fmt.Fprintf(cf.Runner.Log, "perfgate: the confirmation re-run failed, the regressions stand: %v\n", err)
		return nil, nil, err
	}
	KeepTargets(rs, targets)
	return rs, skipped, nil
}

// KeepTargets leaves only the targets' benchmarks in rs: a config suite
// re-runs whole, but only the regressions are re-judged.
func KeepTargets(rs []*model.Results, targets []model.Key) {
	for _, r := range rs {
		r.Benchmarks = slices.DeleteFunc(r.Benchmarks, func(b model.Benchmark) bool { return !slices.Contains(targets, b.Key()) })
	}
}

func unitNames(units []Unit) string {
	names := make([]string, len(units))
	for i, u := range units {
		names[i] = u.Name
	}
	return strings.Join(names, ", ")
}

// Plural says "1 regression", "2 regressions".
func Plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

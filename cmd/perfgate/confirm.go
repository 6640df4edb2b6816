package main

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/check"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/confirm"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/report"
)

// A confirmer re-runs regressed benchmarks in fresh perfgate processes
// before a check fails on them (check --confirm, the action's confirm
// input). The decision is tracker/confirm's; this only runs things.
type confirmer struct {
	e      *env
	rounds int
	cfg    *config.Config // the suites' configuration; nil: built-in suites only
}

// confirmUnits returns the processes of one confirmation round: a suite of
// cfg that holds a target runs alone (perfgate run --config FILE --suite
// NAME, no prepare: the first rounds prepared this checkout); a built-in
// suite runs only the targets (an exact --filter on their names, at a size
// preset that lists them). Targets in neither are returned as skipped,
// with the reason.
func (cf *confirmer) confirmUnits(targets []model.Key) ([]runner.Unit, map[model.Key]string) {
	var units []runner.Unit
	skipped := map[model.Key]string{}
	byUnit := map[string][]string{} // built-in unit name → target names
	args := map[string][]string{}
	for _, k := range targets {
		if cf.cfg != nil && slices.ContainsFunc(cf.cfg.Suites, func(s config.Suite) bool { return s.Name == k.Suite }) {
			if _, done := args[k.Suite]; !done {
				args[k.Suite] = []string{"run", "--config", cf.cfg.File, "--suite", k.Suite, "--skip-prepare"}
				units = append(units, runner.Unit{Name: k.Suite})
			}
			continue
		}
		size := builtinSize(k)
		if size == "" {
			skipped[k] = fmt.Sprintf("suite %s is neither a built-in suite that lists it nor a suite of the configuration", k.Suite)
			continue
		}
		name := k.Suite + " (" + size + ")"
		if _, done := args[name]; !done {
			args[name] = []string{"run", "--suite", k.Suite, "--size", size}
			units = append(units, runner.Unit{Name: name})
		}
		byUnit[name] = append(byUnit[name], regexp.QuoteMeta(k.Name))
	}
	for i := range units {
		u := &units[i]
		u.Args = args[u.Name]
		if names := byUnit[u.Name]; len(names) > 0 {
			suite := u.Args[2]
			u.Args = append(u.Args, "--filter", "^"+regexp.QuoteMeta(suite)+"/("+strings.Join(names, "|")+")$")
		}
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

// confirmRun is the run block of confirmation rounds of the candidate's
// job: the same commit, branch, event and testbed, in the candidate's run
// group, with IDs no earlier confirmation used (<job>-<random>-c1 …).
func confirmRun(cand model.Run) model.Run {
	r := cand
	r.Group = first(cand.Group, cand.ID)
	r.ID = r.Group + "-" + uuid.NewString()[:8]
	return r
}

var _ check.Rerunner = (*confirmer)(nil)

// Rerun runs the targets in cf.rounds confirmation rounds of cand's job and
// returns the rounds, holding only the targets' benchmarks, and the targets
// that could not be re-run. No unit to run: no rounds. A failure is said
// on stderr: the regressions then stand (check.Confirm).
func (cf *confirmer) Rerun(ctx context.Context, targets []model.Key, cand model.Run) ([]*model.Results, map[model.Key]string, error) {
	units, skipped := cf.confirmUnits(targets)
	if len(units) == 0 {
		return nil, skipped, nil
	}
	fmt.Fprintf(cf.e.Stderr, "perfgate: confirming %s: re-running %s in %d fresh rounds\n",
		plural(len(targets), "regression"), unitNames(units), cf.rounds)
	rs, err := newRunner(cf.e).Rounds(ctx, runner.Spec{Rounds: cf.rounds, Units: units, Run: confirmRun(cand), Prefix: "c"})
	if err != nil {
		fmt.Fprintf(cf.e.Stderr, "perfgate: the confirmation re-run failed, the regressions stand: %v\n", err)
		return nil, nil, err
	}
	keepTargets(rs, targets)
	return rs, skipped, nil
}

// keepTargets leaves only the targets' benchmarks in rs: a config suite
// re-runs whole, but only the regressions are re-judged.
func keepTargets(rs []*model.Results, targets []model.Key) {
	for _, r := range rs {
		r.Benchmarks = slices.DeleteFunc(r.Benchmarks, func(b model.Benchmark) bool { return !slices.Contains(targets, b.Key()) })
	}
}

func unitNames(units []runner.Unit) string {
	names := make([]string, len(units))
	for i, u := range units {
		names[i] = u.Name
	}
	return strings.Join(names, ", ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// renderConfirmed is renderComparison with the confirmation (nil: none):
// after the table in text, a section after the verdict in Markdown. The
// JSON report carries the final verdicts; the reasons of regressions that
// did not hold say so.
func renderConfirmed(w io.Writer, c *compare.Comparison, conf *confirm.Confirmation, format string) error {
	if conf == nil || format == formatJSON {
		return renderComparison(w, c, format)
	}
	var s string
	switch format {
	case formatText:
		s = report.Text(c) + report.ConfirmText(conf)
	case formatMarkdown:
		s = report.Markdown(c, report.Options{Confirmation: conf})
	default:
		return renderComparison(w, c, format)
	}
	if _, err := io.WriteString(w, s); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

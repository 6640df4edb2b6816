package main

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/ab"
	"github.com/perfgate/perfgate/kernels/measure"
	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/check"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/confirm"
)

// readDoc returns the file at path (from this package) with its runs of
// white space made one space, so that a sentence matches across the
// line breaks of the Markdown.
func readDoc(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(strings.Fields(string(b)), " ")
}

// secs writes d as the docs' prose does: "15 s", "0.05 s".
func secs(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}

// TestMeasuringBudgets: the stop rule's budgets that perfgate run's help,
// docs/gpu.md and docs/config.md cite are measure's, and the rule
// (measure.RuleFor) applies them: the time cap per benchmark by default,
// at size ci and with --fast, and --fast's GPU time and sample cap; the
// rest of the rule docs/gpu.md describes is RuleFor's.
func TestMeasuringBudgets(t *testing.T) {
	def, ci, fast := measure.RuleFor(measure.Budget{}), measure.RuleFor(measure.Budget{CI: true}), measure.RuleFor(measure.Budget{Fast: true})
	if def.MaxTime != measure.DefaultMaxTime || ci.MaxTime != measure.CIMaxTime || ci.MaxSamples != measure.CIMaxSamples ||
		fast.MaxTime != measure.FastMaxTime || fast.MinGPU != measure.FastMinGPU || fast.MaxSamples != measure.FastMaxSamples {
		t.Errorf("RuleFor does not apply measure's budgets: default %+v, ci %+v, fast %+v", def, ci, fast)
	}
	help, _, _ := invoke(t, nil, "run", "--help")
	for _, want := range []string{
		fmt.Sprintf("[--max-time %v]", measure.DefaultMaxTime),
		fmt.Sprintf("smoke-run budgets: %s minimum and %s maximum per benchmark", spaced(measure.FastMinGPU), spaced(measure.FastMaxTime)),
		fmt.Sprintf("(default %v; %v with --fast)", measure.DefaultMaxTime, measure.FastMaxTime),
	} {
		if !strings.Contains(help, want) {
			t.Errorf("perfgate run --help does not say %q", want)
		}
	}
	gpu := readDoc(t, "../../docs/gpu.md")
	for _, want := range []string{
		fmt.Sprintf("[--max-time %v]", measure.DefaultMaxTime),
		fmt.Sprintf("Each stops after at most %d samples", measure.CIMaxSamples),
		fmt.Sprintf("the %s cap is never what stops a launch-bound sequence", secs(measure.CIMaxTime)),
		fmt.Sprintf("(default %s, %s with `--fast`)", secs(measure.DefaultMaxTime), secs(measure.FastMaxTime)),
		fmt.Sprintf("`--fast` lowers every budget for smoke runs (%s of GPU time, at most %d samples)", secs(measure.FastMinGPU), measure.FastMaxSamples),
		fmt.Sprintf("never past `--max-time` (%s) or %d samples", secs(measure.DefaultMaxTime), def.MaxSamples),
		fmt.Sprintf("(%d at least, as soon as its CV is ≤ %g%%)", ci.MinSamples, ci.TargetCV*100),
		fmt.Sprintf("at least %d samples and %s of GPU time; then stop as soon as the relative standard deviation is ≤ %g%%", def.MinSamples, secs(def.MinGPU), def.TargetCV*100),
		fmt.Sprintf("the last fifth of the samples, at least %d, stay within ±%g%% of the middle", def.StableWindow, def.StableSpread*100),
		fmt.Sprintf("even before the %d samples / %s minimum", def.MinSamples, secs(def.MinGPU)),
	} {
		if !strings.Contains(gpu, want) {
			t.Errorf("docs/gpu.md does not say %q", want)
		}
	}
	if config := readDoc(t, "../../docs/config.md"); !strings.Contains(config, fmt.Sprintf("max_time: %v # cap per benchmark", measure.DefaultMaxTime)) {
		t.Errorf("docs/config.md's builtin suite does not show max_time: %v", measure.DefaultMaxTime)
	}
}

// TestConfirmRounds: the number of confirmation rounds that perfgate
// check's help, action.yml and the docs give is tracker/confirm's, and
// check's synopsis gives the baseline query's defaults (tracker/check).
func TestConfirmRounds(t *testing.T) {
	n := confirm.DefaultRounds
	help, _, _ := invoke(t, nil, "check", "--help")
	for _, want := range []string{
		fmt.Sprintf("[--confirm-rounds %d]", n),
		fmt.Sprintf("[--baseline-branch %s] [--baseline-jobs %d]", check.DefaultBranch, check.DefaultJobs),
	} {
		if !strings.Contains(help, want) {
			t.Errorf("perfgate check --help does not say %q", want)
		}
	}
	if m := regexp.MustCompile(`(?m)^  --confirm-rounds int\n.*\(default (\d+)\)$`).FindStringSubmatch(help); m == nil || m[1] != strconv.Itoa(n) {
		t.Errorf("--confirm-rounds does not default to %d: %q", n, m)
	}
	for path, wants := range map[string][]string{
		"../../action.yml":       {fmt.Sprintf("in fresh processes (%d rounds;", n)},
		"../../docs/action.md":   {fmt.Sprintf("re-run the regressed benchmarks' suites in %d fresh rounds", n)},
		"../../docs/verdicts.md": {fmt.Sprintf("re-runs only the regressed benchmarks in %d fresh processes", n)},
		"../../docs/rounds.md":   {fmt.Sprintf("[--confirm-rounds %d]", n), fmt.Sprintf("`--confirm-rounds` rounds (default %d)", n)},
	} {
		doc := readDoc(t, path)
		for _, want := range wants {
			if !strings.Contains(doc, want) {
				t.Errorf("%s does not say %q", path, want)
			}
		}
	}
}

// TestRoundsDoc: docs/rounds.md gives the action's rounds
// (runner.DefaultActionRounds), perfgate ab's (ab.DefaultRounds) and the
// baseline jobs that estimate the spread (compare.DefaultHistory) as the
// code has them.
func TestRoundsDoc(t *testing.T) {
	action, abRounds := runner.DefaultActionRounds, ab.DefaultRounds
	doc := readDoc(t, "../../docs/rounds.md")
	for _, want := range []string{
		fmt.Sprintf("(default **%d**, the constant `DefaultActionRounds` in `runner/rounds.go`)", action),
		fmt.Sprintf("Its default is %d, more than the action's %d", abRounds, action),
		fmt.Sprintf("reads up to %d baseline jobs, `--history`", compare.DefaultHistory),
		fmt.Sprintf("%d rounds cost %d runs of each suite", abRounds, 2*abRounds),
		fmt.Sprintf("Why the action's %d:", action),
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("docs/rounds.md does not say %q", want)
		}
	}
}

package action

import (
	"fmt"
	"strings"

	"github.com/perfgate/perfgate/tracker/compare"
)

// MaxStatusDescription is GitHub's limit on a commit status description.
const MaxStatusDescription = 140

// StatusContext is the context of perfgate's commit status.
const StatusContext = "perfgate"

// A Verdict is the action's overall outcome (the verdict output).
type Verdict string

// The verdicts.
const (
	Pass         Verdict = "pass"
	Fail         Verdict = "fail"
	Inconclusive Verdict = "inconclusive"
)

// VerdictOf is the outcome of a comparison under its inconclusive policy
// (compare.Summary.Gate): fail on any regression; inconclusive when
// nothing could be judged or, unless the policy is pass, when any
// benchmark is inconclusive; else pass.
func VerdictOf(c *compare.Comparison) Verdict {
	v, _ := gate(c)
	return Verdict(v)
}

// Fails reports whether a comparison fails the gate: a regression, or an
// inconclusive outcome under the fail policy. failOnRegression false
// (fail-on-regression: false) makes both informational.
func Fails(c *compare.Comparison, failOnRegression bool) bool {
	_, fails := gate(c)
	return fails && failOnRegression
}

func gate(c *compare.Comparison) (compare.Outcome, bool) {
	return c.Summary.Gate(c.Options.Inconclusive)
}

// StatusFor is the commit status for a comparison: failure when it fails
// the gate (Fails), else success, with a one-line count that starts with
// the verdict. Commit statuses have no neutral state: an inconclusive
// outcome that does not fail is success described "inconclusive: …".
func StatusFor(c *compare.Comparison, failOnRegression bool, targetURL string) Status {
	st := Status{State: StateSuccess, Context: StatusContext, TargetURL: targetURL}
	t, v := c.Summary, VerdictOf(c)
	if Fails(c, failOnRegression) {
		st.State = StateFailure
	}
	var parts []string
	for _, c := range []struct {
		n    int
		what string
	}{
		{t.Regressions, "regression"}, {t.Accepted, "accepted"}, {t.Improvements, "improvement"}, {t.Warnings, "warning"},
		{t.Unchanged, "unchanged"}, {t.Noisy, "too noisy"}, {t.NotYet, "not yet gateable"}, {t.Insufficient, "insufficient data"}, {t.Incomparable, "incomparable"},
		{t.Errors, "error"}, {t.Skipped, "skipped (kernel unchanged)"},
	} {
		if c.n > 0 {
			parts = append(parts, plural(c.n, c.what))
		}
	}
	d := string(v) + ": " + strings.Join(parts, ", ")
	if len(parts) == 0 {
		d = string(v) + ": no benchmarks"
	}
	if th := c.Options.Threshold; th > 0 {
		d += fmt.Sprintf(" (threshold %g%%)", th*100)
	}
	if _, fails := gate(c); fails && !failOnRegression {
		d += " [informational]"
	}
	st.Description = Clip(d, MaxStatusDescription)
	return st
}

func plural(n int, what string) string {
	if n != 1 && (what == "regression" || what == "improvement" || what == "warning" || what == "error") {
		what += "s"
	}
	return fmt.Sprintf("%d %s", n, what)
}

// Clip shortens s to at most n characters, ending in "…" when cut.
func Clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

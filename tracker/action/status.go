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

// A Tally counts the per-benchmark verdicts of a comparison.
type Tally struct {
	Regressions, Improvements, Warnings, Insufficient, Unchanged, Errors, Incomparable, Noisy int
	NotYet                                                                                    int     // not yet gateable: too little history
	Skipped                                                                                   int     // not measured: kernel unchanged since the baseline
	Accepted                                                                                  int     // regressions accepted on the pull request (/perfgate accept)
	Threshold                                                                                 float64 // fraction, for the description
	// Policy is what inconclusive verdicts do (the inconclusive input).
	Policy compare.InconclusivePolicy
}

// Verdict is the outcome under the tally's policy (compare.Summary.Gate):
// fail on any regression; inconclusive when nothing could be judged or,
// unless the policy is pass, when any benchmark is inconclusive; else pass.
func (t Tally) Verdict() Verdict {
	v, _ := t.gate()
	return Verdict(v)
}

// Fails reports whether the tally fails the gate: a regression, or an
// inconclusive outcome under the fail policy. failOnRegression false
// (fail-on-regression: false) makes both informational.
func (t Tally) Fails(failOnRegression bool) bool {
	_, fails := t.gate()
	return fails && failOnRegression
}

func (t Tally) gate() (compare.Outcome, bool) {
	return compare.Summary{
		Regressions: t.Regressions, Improvements: t.Improvements, Warnings: t.Warnings, Insufficient: t.Insufficient,
		Unchanged: t.Unchanged, Errors: t.Errors, Incomparable: t.Incomparable, Noisy: t.Noisy, NotYet: t.NotYet, Skipped: t.Skipped, Accepted: t.Accepted,
	}.Gate(t.Policy)
}

// Changed reports whether any benchmark is not unchanged.
func (t Tally) Changed() bool {
	return t.Regressions+t.Accepted+t.Improvements+t.Warnings+t.Insufficient+t.Errors+t.Incomparable+t.Noisy+t.NotYet > 0
}

// StatusFor is the commit status for a tally: failure when the tally fails
// the gate (Fails), else success, with a one-line count that starts with
// the verdict. Commit statuses have no neutral state: an inconclusive
// outcome that does not fail is success described "inconclusive: …".
func StatusFor(t Tally, failOnRegression bool, targetURL string) Status {
	st := Status{State: StateSuccess, Context: StatusContext, TargetURL: targetURL}
	v := t.Verdict()
	if t.Fails(failOnRegression) {
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
	if t.Threshold > 0 {
		d += fmt.Sprintf(" (threshold %g%%)", t.Threshold*100)
	}
	if _, fails := t.gate(); fails && !failOnRegression {
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

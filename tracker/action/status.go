package action

import (
	"fmt"
	"strings"
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
	Threshold                                                                                 float64 // fraction, for the description
}

// Verdict is fail on any regression; inconclusive when no benchmark could
// be judged (no comparable baseline, too few samples, errors) and none was
// skipped for an unchanged kernel; else pass.
func (t Tally) Verdict() Verdict {
	switch {
	case t.Regressions > 0:
		return Fail
	case t.Improvements+t.Warnings+t.Unchanged+t.Noisy+t.Skipped == 0:
		return Inconclusive
	}
	return Pass
}

// Changed reports whether any benchmark is not unchanged.
func (t Tally) Changed() bool {
	return t.Regressions+t.Improvements+t.Warnings+t.Insufficient+t.Errors+t.Incomparable+t.Noisy+t.NotYet > 0
}

// StatusFor is the commit status for a tally: failure on a regression when
// the check fails on regressions, else success, with a one-line count.
func StatusFor(t Tally, failOnRegression bool, targetURL string) Status {
	st := Status{State: StateSuccess, Context: StatusContext, TargetURL: targetURL}
	v := t.Verdict()
	if v == Fail && failOnRegression {
		st.State = StateFailure
	}
	var parts []string
	for _, c := range []struct {
		n    int
		what string
	}{
		{t.Regressions, "regression"}, {t.Improvements, "improvement"}, {t.Warnings, "warning"},
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
	if v == Fail && !failOnRegression {
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

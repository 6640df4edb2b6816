package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/perfgate/perfgate/tracker/compare"
)

// VerdictLine returns the one-line verdict of a comparison, such as
//
//	❌ Regression: 2 of 24 benchmarks slower by more than 10% · 1 warning · 21 unchanged · geomean +1.2%
//
// It is plain text: Markdown escapes it where it embeds it.
func VerdictLine(c *compare.Comparison) string {
	emoji, text := verdict(c)
	return emoji + " " + text
}

// verdict returns the emoji and the words of the verdict line.
func verdict(c *compare.Comparison) (emoji, text string) {
	s, n := c.Summary, len(c.Results)
	switch {
	case s.Regressions > 0:
		head := fmt.Sprintf("Regression: %d of %s slower by more than %s", s.Regressions, count(n, "benchmark"), thresholdWords(c))
		return "❌", head + tail(c, false)
	case s.Accepted > 0 && s.Inconclusive() == 0:
		return "☑️", "No regression left: " + count(n, "benchmark") + tail(c, true)
	case n > 0 && s.Incomparable == n || n == 0 && len(c.Incomparable) > 0:
		return "🚫", fmt.Sprintf("Incomparable: no baseline run on a comparable testbed (%s passed over: %s)",
			count(len(c.Incomparable), "run"), firstReason(c))
	case n == 0:
		return "⚪", "Nothing compared: no benchmarks"
	case s.Skipped == n:
		return "⏭️", "Nothing measured: " + count(n, "benchmark") + " skipped, their kernels unchanged since the baseline"
	case s.Insufficient+s.Errors+s.Incomparable+s.Skipped == n:
		return "⚠️", "Nothing judged: " + count(n, "benchmark") + tail(c, false)
	case s.Inconclusive() > 0: // whatever the policy, the headline never hides them
		return "⚠️", "No regression found, some inconclusive: " + count(n, "benchmark") + tail(c, true)
	}
	return "✅", "No regression: " + count(n, "benchmark") + tail(c, true)
}

// thresholdWords describes the threshold, noting per-benchmark overrides.
func thresholdWords(c *compare.Comparison) string {
	t := threshold(c.Options.Threshold)
	for _, r := range c.Results {
		if r.Threshold != c.Options.Threshold {
			return "their threshold"
		}
	}
	return t
}

// tail lists the counts of the verdicts other than regressions, and the
// geometric mean change.
func tail(c *compare.Comparison, withUnchanged bool) string {
	s := c.Summary
	var parts []string
	add := func(n int, one string) {
		if n > 0 {
			parts = append(parts, count(n, one))
		}
	}
	add(s.Accepted, "accepted regression")
	add(s.Warnings, "warning")
	add(s.Errors, "error")
	add(s.Improvements, "improvement")
	add(s.BelowThreshold, "smaller than the threshold")
	add(s.Noisy, "too noisy to judge")
	add(s.NotYet, "not yet gateable")
	add(s.Insufficient, "with too few samples")
	add(s.Skipped, "skipped")
	if s.Regressions > 0 || withUnchanged {
		add(s.Unchanged-s.BelowThreshold, "unchanged")
	}
	if !math.IsNaN(s.GeomeanChange) {
		parts = append(parts, "geomean "+pct(s.GeomeanChange))
	}
	if len(parts) == 0 {
		return ""
	}
	return " · " + strings.Join(parts, " · ")
}

// count formats "1 warning", "2 warnings", "3 unchanged", "2 with too few samples".
func count(n int, what string) string {
	switch what {
	case "unchanged", "with too few samples", "too noisy to judge", "not yet gateable", "smaller than the threshold", "skipped":
		return fmt.Sprintf("%d %s", n, what)
	}
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func firstReason(c *compare.Comparison) string {
	if len(c.Incomparable) == 0 {
		return "no reason recorded"
	}
	return c.Incomparable[0].Reason
}

// order ranks verdicts for reports: what needs attention first.
var order = map[compare.Verdict]int{
	compare.Regression: 0, compare.Accepted: 1, compare.Error: 2, compare.Warn: 3, compare.Improvement: 4,
	compare.Noisy: 5, compare.NotYet: 6, compare.Insufficient: 7, compare.Incomparable: 8, compare.Unchanged: 9, compare.Skipped: 10,
}

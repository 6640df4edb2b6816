package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/perfgate/perfgate/internal/safetext"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/units"
)

// value formats a sample value with its unit for people (tracker/units):
// 17946 ns/op reads 17.95 µs/op, 11728 cpu-ns/op 11.73 cpu-µs/op.
func value(v float64, unit string) string { return units.Format(v, unit) }

// sig formats v with four significant digits.
func sig(v float64) string { return units.Number(v) }

// pct formats a fraction as a signed percentage with one decimal.
func pct(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "—"
	}
	s := fmt.Sprintf("%+.1f%%", 100*f)
	if s == "-0.0%" {
		s = "+0.0%"
	}
	return s
}

// threshold formats a threshold fraction without a sign, such as "10%".
func threshold(f float64) string {
	return strings.TrimSuffix(strings.TrimSuffix(fmt.Sprintf("%.2f", 100*f), "0"), ".0") + "%"
}

// ci formats a confidence interval, or "—" when there is none.
func ci(lo, hi float64, sep string) string {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return "—"
	}
	return pct(lo) + sep + pct(hi)
}

// pval formats a p-value: three decimals, or "<0.001" below (which is
// all a gate's decision needs, and 3.3e-08 broke over two lines in a PR
// comment's table).
func pval(p float64) string {
	switch {
	case math.IsNaN(p):
		return "—"
	case p < 0.001:
		return "<0.001"
	}
	return strconv.FormatFloat(p, 'f', 3, 64)
}

// level formats a confidence level such as 0.99 as "99%".
func level(conf float64) string { return threshold(conf) }

// shortCommit returns the first 7 characters of a commit SHA.
func shortCommit(c string) string {
	if len(c) > 7 {
		return c[:7]
	}
	return c
}

// plain replaces control characters (which could move a terminal's cursor
// or break a table row) with spaces or "?", and so the bidirectional
// controls that would show a name reversed (safetext.IsBidi).
func plain(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			return ' '
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || safetext.IsBidi(r):
			return '?'
		}
		return r
	}, s)
}

// shownP returns the adjusted one-sided p-value in the direction of the
// estimated change: the better-direction one for a change below zero.
func shownP(r *compare.Result) float64 {
	if r.Change < 0 {
		return r.PBetterAdjusted
	}
	return r.PAdjusted
}

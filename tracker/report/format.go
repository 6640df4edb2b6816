package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
)

// value formats a sample value with its unit for people: time units scale
// to ns, µs, ms or s; other units are printed as they are.
func value(v float64, unit string) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	if !model.IsTimeUnit(unit) {
		return strings.TrimSpace(sig(v) + " " + unit)
	}
	ns := v * model.NanosPer(unit)
	switch a := math.Abs(ns); {
	case a < 1e3:
		return sig(ns) + " ns"
	case a < 1e6:
		return sig(ns/1e3) + " µs"
	case a < 1e9:
		return sig(ns/1e6) + " ms"
	}
	return sig(ns/1e9) + " s"
}

// sig formats v with four significant digits, without an exponent for
// ordinary magnitudes.
func sig(v float64) string {
	a := math.Abs(v)
	if a == 0 {
		return "0"
	}
	if a >= 1e6 || a < 1e-3 {
		return strconv.FormatFloat(v, 'g', 4, 64)
	}
	dec := min(max(3-int(math.Floor(math.Log10(a))), 0), 6)
	return strconv.FormatFloat(v, 'f', dec, 64)
}

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

// pval formats a p-value: three decimals, or two significant digits in
// exponent form below 0.001.
func pval(p float64) string {
	switch {
	case math.IsNaN(p):
		return "—"
	case p < 0.001:
		return strconv.FormatFloat(p, 'e', 1, 64)
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
// or break a table row) with spaces or "?".
func plain(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			return ' '
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
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

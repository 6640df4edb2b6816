// Package units formats benchmark values with their units for people: a
// time, alone ("ms") or as a unit's numerator ("ns/op", "cpu-ns/op"), is
// scaled to ns, µs, ms or s, and bytes get a binary or SI prefix
// (golang.org/x/perf/benchunit), so 11728 cpu-ns/op reads 11.73 cpu-µs/op.
//
// It imports tracker/model, benchunit and the standard library, and does no
// I/O.
package units

import (
	"math"
	"strconv"
	"strings"

	"golang.org/x/perf/benchunit"

	"github.com/perfgate/perfgate/tracker/model"
)

// Format formats v in unit with four significant digits. Units it does not
// know print as they are.
func Format(v float64, unit string) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	if model.IsTimeUnit(unit) {
		num, u := scaleNanos(v * model.NanosPer(unit))
		return num + " " + u
	}
	tv, tu := benchunit.Tidy(v, unit)
	if i := secToken(tu); i >= 0 {
		if unit[i:min(i+2, len(unit))] == "ns" {
			tv = v // tidied from ns: scale the value as given, not v·1e-9·1e9
		} else {
			tv *= 1e9
		}
		num, prefix := scaleNanos(tv)
		return num + " " + tu[:i] + prefix + tu[i+len("sec"):]
	}
	if tu != unit && strings.HasPrefix(tu, "B") { // MB/s, MB/op: tidied to bytes
		s := benchunit.Scale(tv, benchunit.ClassOf(tu))
		prefix := strings.TrimLeft(s, "-+0123456789.")
		return strings.TrimSuffix(s, prefix) + " " + prefix + tu
	}
	if a := math.Abs(v); a >= 1e6 && unit != "" && !strings.ContainsAny(unit[:1], "kKMGT") {
		s := benchunit.Scale(v, benchunit.Decimal)
		prefix := strings.TrimLeft(s, "-+0123456789.")
		return strings.TrimSuffix(s, prefix) + prefix + " " + unit
	}
	return strings.TrimSpace(Number(v) + " " + unit)
}

// secToken returns the index of "sec" as a whole word before any "/" of
// unit, or -1.
func secToken(unit string) int {
	num, _, _ := strings.Cut(unit, "/")
	for i := strings.Index(num, "sec"); i >= 0; {
		before := i == 0 || !isLetter(num[i-1])
		after := i+3 == len(num) || !isLetter(num[i+3])
		if before && after {
			return i
		}
		j := strings.Index(num[i+1:], "sec")
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return -1
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// scaleNanos returns ns nanoseconds in the largest of ns, µs, ms and s
// that keeps the number at or above 1.
func scaleNanos(ns float64) (num, unit string) {
	switch a := math.Abs(ns); {
	case a < 1e3:
		return Number(ns), "ns"
	case a < 1e6:
		return Number(ns / 1e3), "µs"
	case a < 1e9:
		return Number(ns / 1e6), "ms"
	}
	return Number(ns / 1e9), "s"
}

// Number formats v with four significant digits, without an exponent for
// ordinary magnitudes.
func Number(v float64) string {
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

// Scale returns the unit Format would show v in and the factor that
// converts values of unit to it, for a table that prints the unit once
// (11728 cpu-ns/op: 0.001, "cpu-µs/op").
func Scale(v float64, unit string) (factor float64, scaled string) {
	s := Format(v, unit)
	num, u, ok := strings.Cut(s, " ")
	n, err := strconv.ParseFloat(num, 64)
	if !ok || err != nil || v == 0 || n == 0 {
		return 1, unit
	}
	// The factor from the formatted (rounded) number is off in the fourth
	// digit: take the nearest power of ten (or of 1024 for IEC prefixes).
	f := n / v
	tidy, _ := benchunit.Tidy(1, unit) // MB -> B is 1e6
	if model.IsTimeUnit(unit) {
		tidy = 1
	}
	for _, base := range []float64{10, 1024} {
		e := math.Round(math.Log(f/tidy) / math.Log(base))
		if p := tidy * math.Pow(base, e); math.Abs(f/p-1) < 0.01 {
			return p, u
		}
	}
	return f, u
}

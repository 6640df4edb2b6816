package cliflag

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// An Age is how far back a flag such as --since or --older-than reaches: a
// whole number of hours, days, weeks, months or years. The zero Age means no
// limit.
type Age struct {
	N    int
	Unit string // "h", "d", "w", "mo" or "y"
}

// ParseAge parses "90d", "12w", "6mo", "1y", "36h" or "0". It refuses "m"
// (minutes or months? prune --older-than 6m once deleted all but six
// minutes of history) and seconds, which no history is measured in.
func ParseAge(s string) (Age, error) {
	s = strings.TrimSpace(s)
	if s == "0" {
		return Age{}, nil
	}
	num := strings.TrimRight(s, "abcdefghijklmnopqrstuvwxyzµ")
	unit := s[len(num):]
	n, err := strconv.Atoi(num)
	if num == "" || err != nil || n <= 0 {
		return Age{}, fmt.Errorf("%q is not an age like 90d, 12w, 6mo or 1y", s)
	}
	switch unit {
	case "h", "d", "w", "mo", "y":
	case "m", "min":
		return Age{}, fmt.Errorf("%q is ambiguous: write %dmo for months (minutes are not an age of history)", s, n)
	case "s", "ms", "us", "µs", "ns":
		return Age{}, fmt.Errorf("%q: ages are in h, d, w, mo or y, not seconds", s)
	default:
		return Age{}, fmt.Errorf("%q is not an age: unknown unit %q; ages are in h (hours), d, w, mo (months) or y", s, unit)
	}
	if n > 100*365 {
		return Age{}, fmt.Errorf("%q is more than a century", s)
	}
	return Age{N: n, Unit: unit}, nil
}

// Before returns the instant the age reaches back to from now (calendar
// months and years), or the zero time for the zero Age.
func (a Age) Before(now time.Time) time.Time {
	switch a.Unit {
	case "h":
		return now.Add(-time.Duration(a.N) * time.Hour)
	case "d":
		return now.AddDate(0, 0, -a.N)
	case "w":
		return now.AddDate(0, 0, -7*a.N)
	case "mo":
		return now.AddDate(0, -a.N, 0)
	case "y":
		return now.AddDate(-a.N, 0, 0)
	}
	return time.Time{}
}

func (a Age) String() string {
	if a.N == 0 {
		return "0"
	}
	return strconv.Itoa(a.N) + a.Unit
}

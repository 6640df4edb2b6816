package main

import (
	"strconv"
	"strings"
	"time"
)

// parseAge parses an age flag such as --since or --older-than: a whole
// number of days ("90d") or weeks ("2w"), or a Go duration ("36h", "90m").
// "0" means no limit. Errors name the flag.
func parseAge(flagName, s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "0" {
		return 0, nil
	}
	for suffix, unit := range map[string]time.Duration{"d": 24 * time.Hour, "w": 7 * 24 * time.Hour} {
		if num, ok := strings.CutSuffix(s, suffix); ok {
			n, err := strconv.Atoi(num)
			if err != nil || n < 0 || n > 100*365 {
				return 0, usageError("--%s: %q is not an age like 90d, 2w or 36h", flagName, s)
			}
			return time.Duration(n) * unit, nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, usageError("--%s: %q is not an age like 90d, 2w or 36h", flagName, s)
	}
	return d, nil
}

// ageCutoff is now minus the age given to flagName; the zero time when the
// age is 0 (no limit).
func ageCutoff(flagName, s string, now time.Time) (time.Time, error) {
	d, err := parseAge(flagName, s)
	if err != nil || d == 0 {
		return time.Time{}, err
	}
	return now.Add(-d), nil
}

// describeAge renders a cutoff for messages.
func describeAge(t time.Time) string {
	if t.IsZero() {
		return "the beginning"
	}
	return t.UTC().Format("2006-01-02 15:04Z")
}

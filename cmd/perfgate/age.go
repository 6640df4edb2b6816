package main

import (
	"time"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/cmd/perfgate/internal/cliflag"
)

// ageCutoff is now minus the age given to flagName ("90d", "6mo", see
// cliflag.ParseAge); the zero time when the age is 0 (no limit).
func ageCutoff(flagName, s string, now time.Time) (time.Time, error) {
	a, err := cliflag.ParseAge(s)
	if err != nil {
		return time.Time{}, cli.UsageErrorf("--%s: %v", flagName, err)
	}
	return a.Before(now), nil
}

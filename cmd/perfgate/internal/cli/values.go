package cli

import (
	"time"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cliflag"
	"github.com/perfgate/perfgate/tracker/units"
)

// AgeCutoff is now minus the age given to flagName ("90d", "6mo", see
// cliflag.ParseAge); the zero time when the age is 0 (no limit). A bad age
// is a usage error naming the flag.
func AgeCutoff(flagName, s string, now time.Time) (time.Time, error) {
	a, err := cliflag.ParseAge(s)
	if err != nil {
		return time.Time{}, UsageErrorf("--%s: %v", flagName, err)
	}
	return a.Before(now), nil
}

// ParseDuration reads a timeout flag or input (units.ParseTimeout); a bad
// one is a usage error naming it.
func ParseDuration(name, s string) (time.Duration, error) {
	d, err := units.ParseTimeout(s)
	if err != nil {
		return 0, UsageErrorf("%s: %v", name, err)
	}
	return d, nil
}

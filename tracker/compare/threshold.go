package compare

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// MaxThresholdPercent is the largest threshold perfgate accepts.
const MaxThresholdPercent = 1000

// ParseThreshold reads a threshold as users write it, on the command line,
// in PERFGATE_THRESHOLD, in the action's input and in .perfgate.yml: a
// percentage, with or without the sign ("10%" and "10" are ten percent,
// "0.5%" half a percent). A bare number between 0 and 1 is refused as
// ambiguous, since "0.1" reads as much like the fraction 10% as like 0.1%.
// It returns the threshold as a fraction (Options.Threshold): 10% is 0.1.
func ParseThreshold(s string) (float64, error) {
	t := strings.TrimSpace(s)
	pct := strings.HasSuffix(t, "%")
	v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(t, "%")), 64)
	switch {
	case err != nil || math.IsNaN(v) || math.IsInf(v, 0):
		return 0, fmt.Errorf("%q is not a percentage such as 10%% or 10", s)
	case v < 0 || v > MaxThresholdPercent:
		return 0, fmt.Errorf("%q is out of range: a threshold is a percentage from 0%% to %d%%", s, MaxThresholdPercent)
	case !pct && v > 0 && v < 1:
		return 0, fmt.Errorf("%q is ambiguous: write %s%% for %s percent, or %g%% for %g percent", s, trimZeros(100*v), trimZeros(100*v), v, v)
	}
	return v / 100, nil
}

// trimZeros formats a percentage without float noise (0.1*100 is
// 10.000000000000002).
func trimZeros(v float64) string {
	return strconv.FormatFloat(math.Round(v*1e6)/1e6, 'g', -1, 64)
}

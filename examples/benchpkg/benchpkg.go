// Package benchpkg is a small CPU workload for perfgate's command-suite and
// A/B demos: a checksum and an insertion sort whose cost can be raised by a
// fixed percentage to simulate a regression.
package benchpkg

import (
	"os"
	"strconv"
)

// basePasses is how many times Checksum walks its input; SlowdownPercent
// scales it, so 20 makes every Checksum call do 20% more work.
const basePasses = 10

// passes returns the number of passes over the input for a slowdown of pct percent.
func passes(pct int) int { return basePasses * (100 + pct) / 100 }

// SlowdownPercent is the deliberate slowdown: the constant slowdownPercent
// (knob.go, which the A/B test patches) unless the environment variable
// BENCHPKG_SLOWDOWN_PCT overrides it.
func SlowdownPercent() int {
	if v, err := strconv.Atoi(os.Getenv("BENCHPKG_SLOWDOWN_PCT")); err == nil && v >= 0 {
		return v
	}
	return slowdownPercent
}

// Checksum returns an FNV-1a style hash of data, computed passes(SlowdownPercent()) times over.
func Checksum(data []byte) uint64 {
	return checksum(data, passes(SlowdownPercent()))
}

func checksum(data []byte, n int) uint64 {
	h := uint64(14695981039346656037)
	for p := 0; p < n; p++ {
		for _, b := range data {
			h ^= uint64(b)
			h *= 1099511628211
		}
	}
	return h
}

// InsertionSort sorts xs in place.
func InsertionSort(xs []int) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

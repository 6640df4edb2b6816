//go:build !linux

package scaletest

import "time"

// cost returns the wall time op takes: elsewhere than on Linux, where
// CI runs, no thread CPU clock is read, and load distorts the ratios more.
func cost(op func()) time.Duration {
	start := time.Now()
	op()
	return time.Since(start)
}

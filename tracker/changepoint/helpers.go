package changepoint

import (
	"runtime"
	"sync/atomic"
)

// busyHelpers counts the goroutines that permutation tests run beside
// their callers, all tests of the process together. It stays below
// GOMAXPROCS: a caller that already runs one analysis per CPU (the site
// build) gets few or none, so nested use never starts more than
// GOMAXPROCS − 1 helpers, nor holds more than their buffers (O(n) each).
var busyHelpers atomic.Int64

// takeHelpers reserves up to want helpers, as many as are free, and
// returns how many; giveHelpers returns them.
func takeHelpers(want int) int {
	free := int64(runtime.GOMAXPROCS(0) - 1)
	for {
		busy := busyHelpers.Load()
		n := min(int64(want), free-busy)
		if n <= 0 {
			return 0
		}
		if busyHelpers.CompareAndSwap(busy, busy+n) {
			return int(n)
		}
	}
}

func giveHelpers(n int) { busyHelpers.Add(-int64(n)) }

// Package scaletest checks that a cost stays linear in the size of its
// input: it times one operation at two sizes and fails when the larger
// costs more than the ratio of sizes allows (with room for noise), so the
// next change that adds a quadratic loop is caught in CI. Ratios of sizes,
// not absolute times, and the CPU time of the operation's thread, not the
// wall time, make it hold on a loaded 2-core runner as on a quiet
// workstation.
//
// It is imported by tests only, and imports the standard library only.
package scaletest

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// A Case is one cost to check.
type Case struct {
	// N is the smaller size; the larger is Factor × N (default 4).
	N, Factor int
	// Reps is how many times each size runs, interleaved; the minimum of
	// each counts, as the least disturbed by other load (default 5).
	Reps int
	// PerDoubling is the largest allowed time ratio per doubling of the
	// size (default 2.6: linear is 2, a quadratic cost is 4).
	PerDoubling float64
	// Setup prepares an input of size n and returns the operation to time
	// on it (nothing of Setup is timed).
	Setup func(n int) (op func())
}

// Linear times c at N and Factor × N and fails t when the ratio of the
// minimum CPU times exceeds PerDoubling per doubling. A measurement that fails
// is repeated once before failing, as a load spike can hit every
// repetition of one size.
func Linear(t testing.TB, c Case) {
	t.Helper()
	c.defaults()
	limit := 1.0
	for f := c.Factor; f > 1; f /= 2 {
		limit *= c.PerDoubling
	}
	var small, large time.Duration
	for attempt := range 2 {
		small, large = c.measure()
		if float64(large) <= limit*float64(small) {
			t.Logf("n=%d: %v; n=%d: %v (ratio %.2f, limit %.2f)", c.N, small, c.Factor*c.N, large,
				float64(large)/float64(small), limit)
			return
		}
		t.Logf("attempt %d: n=%d: %v; n=%d: %v", attempt+1, c.N, small, c.Factor*c.N, large)
	}
	t.Errorf("superlinear: %d× the input took %.1f× the time (%v vs %v; linear allows %.1f×)",
		c.Factor, float64(large)/float64(small), large, small, limit)
}

func (c *Case) defaults() {
	if c.Factor < 2 {
		c.Factor = 4
	}
	if c.Reps < 1 {
		c.Reps = 5
	}
	if c.PerDoubling == 0 {
		c.PerDoubling = 2.6
	}
}

// measure returns the minimum time of the operation at each size.
func (c *Case) measure() (small, large time.Duration) {
	opSmall, opLarge := c.Setup(c.N), c.Setup(c.Factor*c.N)
	small, large = time.Duration(1<<63-1), time.Duration(1<<63-1)
	for range c.Reps {
		small = min(small, timed(opSmall))
		large = min(large, timed(opLarge))
	}
	return small, large
}

// timed times op after a garbage collection and with the collector off, so
// that no collection lands in it: a collection's cost depends on the whole
// heap (both sizes' inputs and the test binary's), not on op.
func timed(op func()) time.Duration {
	runtime.GC()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	return cost(op)
}

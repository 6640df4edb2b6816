package main

import (
	"os"
	"runtime/debug"
)

// heapPerInputByte is the soft memory limit per byte of results files a
// comparison reads. Comparing holds about 2.4 bytes of heap per input byte
// at its peak (the samples as float64, each side's pooled sorted copy where
// several runs are pooled, the verdicts), and Go's collector would let the
// heap grow to twice that before collecting; 3 keeps the peak RSS of
// compare on 10k × 100 samples near 3.8× its input for about the same CPU
// time (docs/speed.md).
const heapPerInputByte = 3

// minHeapLimit keeps the limit off small inputs, whose heap is mostly the
// process's own.
const minHeapLimit = 32 << 20

// limitHeap sets a soft memory limit proportional to the size of files,
// unless GOMEMLIMIT chose one, and returns the function that puts the
// previous limit back (the tests run commands in one process). The limit
// only makes the collector run sooner as the heap nears it; a larger live
// heap still gets its memory.
func limitHeap(e *env, files []string) (restore func()) {
	restore = func() {}
	if e.Getenv("GOMEMLIMIT") != "" {
		return restore
	}
	var n int64
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil {
			n += fi.Size()
		}
	}
	if limit := heapPerInputByte * n; limit > minHeapLimit {
		old := debug.SetMemoryLimit(limit)
		restore = func() { debug.SetMemoryLimit(old) }
	}
	return restore
}

package compare

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

// HeapLimit is the soft memory limit (runtime/debug.SetMemoryLimit) for a
// comparison that reads inputBytes of results files, or 0 when the input is
// too small for a limit to matter. The limit only makes the collector run
// sooner as the heap nears it; a larger live heap still gets its memory.
func HeapLimit(inputBytes int64) int64 {
	if limit := heapPerInputByte * inputBytes; limit > minHeapLimit {
		return limit
	}
	return 0
}

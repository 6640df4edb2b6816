// Package device is the seam between perfgate and a GPU, as go-nvml puts
// hardware behind an interface: a Device times work enqueued on one stream
// between two events (held behind the blocking kernel or as issued),
// flushes the L2, and captures work into a graph; a GPU is a Device a
// suite's setup uses, with Memory (allocate, set, copy, read back), Modules
// (the built-in suites' compiled code, its Funcs and PTX hashes) and
// Kernels (a Launch: function, grid, block, dynamic shared memory and
// arguments, enqueued on the stream). A Timer times one prepared benchmark
// on a Device for the measuring loop (measure.Timer): a sample's
// repetitions replayed from a captured graph, as stream launches, or in
// chunks. Package kernels implements GPU on CUDA behind the "cuda" build
// tag; package devicetest is a fake on the CPU for tests.
//
// It imports kernels/measure and the standard library only.
package device

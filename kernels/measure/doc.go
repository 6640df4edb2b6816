// Package measure is perfgate's measuring loop, free of CUDA: it asks a
// Timer for the GPU time of repetitions of one prepared benchmark and a
// Monitor for the SM clock, and decides everything else: the warm-up, the
// batch size, the samples and when to stop (Rule, nvbench's rule), the
// pacing of a throttled GPU (Pacer), and how many contexts a benchmark is
// spread over (DrawsFor, Drawn). The CUDA timer and monitor are in package
// kernels; the tests here drive the loop with a fake GPU and a fake clock.
//
// It imports tracker/model (metric names) and the standard library only.
package measure

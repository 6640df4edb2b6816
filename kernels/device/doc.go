// Package device is the seam between perfgate's timing and a GPU: a Device
// times work enqueued on one stream between two events (held behind the
// blocking kernel or as issued), flushes the L2, and captures work into a
// graph; a Timer times one prepared benchmark on a Device for the measuring
// loop (measure.Timer): a sample's repetitions replayed from a captured
// graph, as stream launches, or in chunks. Package kernels implements
// Device on CUDA behind the "cuda" build tag; the tests here use a fake.
//
// It imports kernels/measure and the standard library only.
package device

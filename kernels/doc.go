// Package kernels is perfgate's GPU harness and its built-in suites
// (memory, elementwise, microbatch, mixedops), and it runs users' CUDA
// kernels declared in .perfgate.yml with the same harness.
//
// A Session owns the CUDA context on one locked OS thread. Kernels are CUDA
// C (cu/*.cu, embedded) compiled with NVRTC for the device's architecture,
// cached as PTX on disk and loaded with cuModuleLoadData. Each benchmark is
// checked against a CPU (or reference-kernel) result on fresh random inputs,
// then timed with CUDA events in a cold mode (L2 flushed before each sample)
// and a batch mode (N back-to-back repetitions per event pair). A sample's
// repetitions are captured once into a CUDA graph and replayed behind a
// blocking kernel (the stream-launch strategies under test are queued
// behind it as stream launches instead, in chunks); sampling is adaptive
// (nvbench's rule) and samples taken at a low SM clock (NVML) are dropped.
// The measuring loop (package measure) is free of CUDA and tested with a fake
// timer. docs/gpu.md describes the method and the figures measured with it.
//
// It is the only package that imports gorgonia.org/cu, and every file that
// does (and the cgo of its own for graphs, launch loops and mapped host
// memory) is behind the "cuda" build tag. Without the tag the package still
// builds, List works, and every GPU entry point fails with ErrNoCUDA.
//
// It imports tracker/model, the CUDA bindings and go-nvml only.
package kernels

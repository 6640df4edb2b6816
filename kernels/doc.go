// Package kernels is perfgate's GPU harness and its built-in GPU kernel
// suites (memory, elementwise, microbatch, mixedops, attention, decode,
// rowwise, gemm), and it runs users' CUDA kernels declared in .perfgate.yml
// with the same harness. It lists every built-in suite in one place
// (suites.go), the cmdpath and sharing suites included, which are packages of
// their own (kernels/cmdpath, kernels/sharing) with no CUDA in them.
//
// A Session owns the CUDA context on one locked OS thread. Kernels are CUDA
// C (cu/*.cu, embedded) compiled with NVRTC for the device's architecture,
// cached as PTX on disk and loaded with cuModuleLoadData. Each benchmark is
// checked against a CPU (or reference-kernel) result on fresh random inputs,
// then timed with CUDA events in each timing: cold (L2 flushed before each
// sample) and batch (N back-to-back repetitions per event pair). A sample's
// repetitions are captured once into a CUDA graph and replayed behind a
// blocking kernel (the stream-launch strategies under test are queued
// behind it as stream launches instead, in chunks); sampling is adaptive
// (nvbench's rule) and samples taken at a low SM clock (NVML) are dropped.
// The measuring loop (package kernels/measure) and the timer it drives
// (kernels/device: a Device, which the session's GPU implements) are free of
// CUDA and tested with fakes; a suite's vocabulary (options, cases, results)
// is package kernels/suite. The setups of memory, elementwise, rowwise,
// attention and users' kernels run on the device seam (device.GPU: memory,
// modules, launches), in files without the build tag (NAME_setup.go)
// tested on kernels/device/devicetest's fake; the others are CUDA code
// still (NAME_cuda.go): microbatch, mixedops and decode time launch loops
// in C, gemm calls cuBLAS. docs/gpu.md describes the method and the figures measured
// with it.
//
// It is the only package that imports gorgonia.org/cu, and every file that
// does (and the cgo of its own for graphs, launch loops and mapped host
// memory) is behind the "cuda" build tag. Without the tag the package still
// builds, List works, and every GPU entry point fails with ErrNoCUDA.
//
// It imports tracker/model, its own subpackages, the CUDA bindings and
// go-nvml only.
package kernels

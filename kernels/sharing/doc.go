// Package sharing is the sharing suite's process control: it runs one
// workload in N worker processes (perfgate re-executing itself, Options.Worker)
// one after another, at once, and at once under a private MPS daemon it
// starts and always stops and reaps, and GPU-filling workloads limited to a
// share of the SMs (CUDA_MPS_ACTIVE_THREAD_PERCENTAGE, or real MIG
// instances). The worker itself, which runs the kernels, is
// kernels.SharingWorker (-tags cuda).
//
// It imports kernels/suite, kernels/measure, tracker/model and the standard
// library only: no CUDA.
package sharing

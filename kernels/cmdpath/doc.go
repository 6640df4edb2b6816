// Package cmdpath is the cmdpath suite: the host side of a GPU runtime's
// command path, how fast commands get from producer goroutines to the
// goroutine that owns the CUDA context (buffered channels against a mutex
// ring, round trips, backpressure, zero-copy buffers, pools). Its mode=host
// benchmarks need no GPU and run in every build (RunHost); its mode=gpu
// benchmarks are built on a GPU session by package kernels (-tags cuda),
// which samples them with Sample and the host loop here.
//
// It imports kernels/suite, kernels/measure, tracker/model and the standard
// library only: no CUDA.
package cmdpath

// Package kernels is perfgate's GPU harness and its built-in suites. It is the
// only package that imports gorgonia.org/cu, and every file that does is
// behind the "cuda" build tag. Without the tag the package still builds, and
// every GPU entry point fails with ErrNoCUDA.
//
// It imports tracker/model and the CUDA bindings only.
package kernels

//go:build cuda

package kernels

import "errors"

// CUDA reports whether this binary was built with CUDA support (-tags cuda).
const CUDA = true

// Build says whether this binary can run the GPU suites, for perfgate
// version and doctor.
const Build = "built with CUDA"

// ErrNoCUDA is never returned by a CUDA build; it exists so callers compile either way.
var ErrNoCUDA = errors.New("unreachable: built with CUDA")

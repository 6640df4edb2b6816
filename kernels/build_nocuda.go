//go:build !cuda

package kernels

import "errors"

// CUDA reports whether this binary was built with CUDA support (-tags cuda).
const CUDA = false

// Build says whether this binary can run the GPU suites, for perfgate
// version and doctor.
const Build = "built without CUDA (-tags cuda)"

// ErrNoCUDA is returned by every GPU entry point of a binary built without CUDA.
var ErrNoCUDA = errors.New("built without CUDA (-tags cuda): this perfgate binary cannot run GPU suites; " +
	"rebuild with CGO_ENABLED=1 go build -tags cuda ./cmd/perfgate (see README, \"Building with CUDA\")")

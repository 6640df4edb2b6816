//go:build !cuda

package kernels

import (
	"context"

	"github.com/perfgate/perfgate/kernels/device"
	"github.com/perfgate/perfgate/kernels/suite"
	"github.com/perfgate/perfgate/tracker/model"
)

// The suites whose setup is CUDA code, not yet on the device seam, are
// registered with these in a build without it; nothing calls them, as
// Session.RunSuite fails with ErrNoCUDA first.

func prepareMicrobatch(device.GPU, suite.Case) (*prepared, error) { return nil, ErrNoCUDA }
func prepareMixed(device.GPU, suite.Case) (*prepared, error)      { return nil, ErrNoCUDA }
func prepareDecode(device.GPU, suite.Case) (*prepared, error)     { return nil, ErrNoCUDA }
func prepareGemm(device.GPU, suite.Case) (*prepared, error)       { return nil, ErrNoCUDA }

func runCmdpath(*Session, context.Context, Options) ([]model.Benchmark, error) {
	return nil, ErrNoCUDA
}

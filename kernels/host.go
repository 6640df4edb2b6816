package kernels

import (
	"context"

	"github.com/perfgate/perfgate/kernels/cmdpath"
	"github.com/perfgate/perfgate/kernels/suite"
	"github.com/perfgate/perfgate/tracker/model"
)

// CountHostAndGPU returns how many of the benchmarks of the named suites
// that o selects run on the host alone (mode=host) and how many need the GPU.
func CountHostAndGPU(names []string, o Options) (host, gpu int) {
	for _, name := range names {
		def, ok := findSuite(name)
		if !ok {
			continue
		}
		for _, sel := range suite.Select(def.Def, o) {
			if sel.Mode == cmdpath.OnHost {
				host++
			} else {
				gpu++
			}
		}
	}
	return host, gpu
}

// RunHost runs the mode=host benchmarks of suite name that o selects. They
// need no GPU and run in every build; a suite without any returns none.
func RunHost(ctx context.Context, name string, o Options) ([]model.Benchmark, error) {
	def, ok := findSuite(name)
	if !ok {
		return nil, &UnknownSuiteError{Name: name}
	}
	if err := ValidateOptions(o); err != nil {
		return nil, err
	}
	if def.RunHost == nil {
		return nil, ctx.Err()
	}
	return def.RunHost(ctx, suite.Select(def.Def, o), o)
}

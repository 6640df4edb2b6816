//go:build cuda

package kernels

import (
	"context"

	"github.com/perfgate/perfgate/kernels/device"
	"github.com/perfgate/perfgate/kernels/suite"
	"github.com/perfgate/perfgate/tracker/model"
)

// RunUserKernel compiles a user's kernel with NVRTC and measures every case
// with the same harness as the built-in suites (correctness first when a
// reference is given, then the cold and batch timings, adaptive sampling, clock
// filtering). A case that fails becomes an error benchmark.
func (s *Session) RunUserKernel(ctx context.Context, k UserKernel, o Options) ([]model.Benchmark, error) {
	for i, uc := range k.Cases {
		if err := validateUserCase(k, i, uc); err != nil {
			return nil, &model.InputError{File: k.File, Msg: err.Error()}
		}
	}
	var out []model.Benchmark
	var pend []*pendingDraw
	for _, uc := range k.Cases {
		c := userCase(k, uc)
		var wanted []string
		for _, m := range suite.Timings {
			if o.Filter == nil || o.Filter.MatchString(c.Suite+"/"+c.Name(m)) {
				wanted = append(wanted, m)
			}
		}
		if len(wanted) == 0 {
			continue
		}
		prep := func(d device.GPU, _ suite.Case) (*prepared, error) { return prepareUser(d, k, uc) }
		bs, ps, err := s.runCase(ctx, c, wanted, o, prep)
		for _, pd := range ps {
			pd.at += len(out)
		}
		out, pend = append(out, bs...), append(pend, ps...)
		if err != nil {
			return dropPending(out, pend), err
		}
	}
	if err := s.draw(ctx, out, pend, o); err != nil {
		return dropPending(out, pend), err
	}
	return out, nil
}

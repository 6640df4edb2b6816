//go:build cuda

package kernels

import (
	"context"
	"fmt"
	"time"

	"gorgonia.org/cu"

	"github.com/perfgate/perfgate/kernels/device"
	"github.com/perfgate/perfgate/kernels/measure"
	"github.com/perfgate/perfgate/kernels/suite"
	"github.com/perfgate/perfgate/tracker/model"
)

// onGPU is the session's device as the setups not yet on the device seam
// take it (microbatch, mixedops, decode, gemm): *gpu is the
// only device.GPU of the cuda build, and RunSuite hands them no other.
func onGPU(d device.GPU) *gpu { return d.(*gpu) }

// RunSuite runs the built-in suite name as o selects. A benchmark that fails
// (wrong result, CUDA fault) is returned with its Error set; the error
// return is for the run as a whole (unknown suite, cancelled).
func (s *Session) RunSuite(ctx context.Context, name string, o Options) ([]model.Benchmark, error) {
	def, ok := findSuite(name)
	if !ok {
		return nil, &UnknownSuiteError{Name: name}
	}
	if err := ValidateOptions(o); err != nil {
		return nil, err
	}
	if def.run != nil {
		return def.run(s, ctx, o)
	}
	sel := suite.Select(def.Def, o)
	var out []model.Benchmark
	var pend []*pendingDraw
	for i := 0; i < len(sel); {
		j := i + 1
		for j < len(sel) && sel[j].Case.Name("") == sel[i].Case.Name("") {
			j++
		}
		var wanted []string
		for _, x := range sel[i:j] {
			wanted = append(wanted, x.Mode)
		}
		bs, ps, err := s.runCase(ctx, sel[i].Case, wanted, o, def.prepare)
		for _, pd := range ps {
			pd.at += len(out)
		}
		out, pend = append(out, bs...), append(pend, ps...)
		if err != nil {
			return dropPending(out, pend), err
		}
		i = j
	}
	if err := s.draw(ctx, out, pend, o); err != nil {
		return dropPending(out, pend), err
	}
	if name == "memory" {
		s.do(func(g *gpu) error { g.noteCeiling(ceilingOf(out)); return nil })
	}
	finishSuite(name, out)
	return out, nil
}

// runCase prepares one case and measures it in each wanted mode. A
// benchmark to be spread over contexts (measure.DrawsFor) has its first draw
// measured and a place held in the results; its pendingDraw says where.
func (s *Session) runCase(ctx context.Context, c suite.Case, wanted []string, o Options, prep preparer) ([]model.Benchmark, []*pendingDraw, error) {
	var out []model.Benchmark
	var pend []*pendingDraw
	err := s.do(func(g *gpu) error {
		g.cacheDir = o.CacheDir
		out, pend = g.runCase(ctx, c, wanted, o, prep)
		return nil
	})
	for i, b := range out {
		if o.Progress != nil && !isPending(pend, i) {
			o.Progress(suite.ProgressLine(b))
		}
	}
	if err == nil {
		err = ctx.Err()
	}
	return out, pend, err
}

func (g *gpu) runCase(ctx context.Context, c suite.Case, wanted []string, o Options, prep preparer) ([]model.Benchmark, []*pendingDraw) {
	fail := func(err error) ([]model.Benchmark, []*pendingDraw) {
		g.afterFault()
		var bs []model.Benchmark
		for _, m := range wanted {
			bs = append(bs, suite.ErrorBenchmark(c, m, err))
		}
		return bs, nil
	}
	if err := g.ready(); err != nil {
		return fail(err)
	}
	if c.Suite != "memory" && g.ceiling == 0 {
		if err := g.measureCeiling(ctx); err != nil {
			return fail(fmt.Errorf("measure the copy ceiling: %w", err))
		}
	}
	free0, _, memErr := cu.MemInfo()
	p, err := prep(g, c)
	if err != nil {
		return fail(err)
	}
	defer p.cleanup()
	p.meta.CeilingGBps = g.ceiling
	// Device memory the benchmark took, measured: free memory before it was
	// prepared minus free memory after its first (checked) run.
	if free1, _, err := cu.MemInfo(); err == nil && memErr == nil && free0 >= free1 {
		p.meta.MemBytes = float64(free0 - free1)
	}
	var out []model.Benchmark
	var pend []*pendingDraw
	for _, mode := range wanted {
		if b, ok := SkipUnchanged(c.Suite, c.Name(mode), c.ResultParams(mode), p.meta.PTXHash, o.Unchanged); ok {
			out = append(out, b)
			continue
		}
		t0 := time.Now()
		draws := func(perOp time.Duration) int { return measure.DrawsFor(o.Fast, mode, p.stream, perOp) }
		m, err := g.measure(ctx, p, mode, suite.RulesFor(o), draws)
		if err != nil {
			if ctx.Err() != nil {
				return out, pend
			}
			g.afterFault()
			out = append(out, suite.ErrorBenchmark(c, mode, err))
			continue
		}
		if m.Draws > 1 {
			pd := &pendingDraw{c: c, prep: prep, mode: mode, at: len(out), meta: p.meta, draws: m.Draws, took: time.Since(t0)}
			pd.d.Add(m)
			pend = append(pend, pd)
			out = append(out, model.Benchmark{}) // filled in by Session.draw
			continue
		}
		b := suite.ToBenchmark(c, m, p.meta)
		b.Info["took"] = time.Since(t0).Round(time.Millisecond).String()
		out = append(out, b)
	}
	return out, pend
}

// measureCeiling times the two 1 GiB copies quickly (cold, fast rules) and
// keeps the faster as the copy ceiling for pct_of_copy.
func (g *gpu) measureCeiling(ctx context.Context) error {
	for _, c := range memoryCases("", nil) {
		p, err := prepareMemory(g, c)
		if err != nil {
			return err
		}
		m, err := g.measure(ctx, p, measure.Cold, suite.RulesFor(Options{Fast: true}), nil)
		p.cleanup()
		if err != nil {
			return err
		}
		g.noteCeiling(p.meta.Bytes / (measure.Median(m.Samples) * 1e-6) / 1e9)
	}
	return nil
}

func (g *gpu) noteCeiling(gbps float64) {
	if gbps > g.ceiling {
		g.ceiling = gbps
	}
}

//go:build cuda

package kernels

/*
#include <malloc.h>
*/
import "C"

import (
	"context"
	"fmt"
	"time"

	"gorgonia.org/cu"

	"github.com/perfgate/perfgate/kernels/measure"
	"github.com/perfgate/perfgate/kernels/suite"
	"github.com/perfgate/perfgate/tracker/model"
)

// A pendingDraw is a benchmark measured in the session's context whose
// other draws (measure.DrawsFor) are still to come; at is its place in the suite's
// results.
type pendingDraw struct {
	c     suite.Case
	prep  preparer
	mode  string
	at    int
	meta  suite.WorkMeta
	draws int
	d     measure.Drawn
	took  time.Duration
	err   error  // a draw failed: the benchmark is an error
	note  string // how the draws were taken when not in contexts of their own
}

func isPending(pend []*pendingDraw, i int) bool {
	for _, pd := range pend {
		if pd.at == i {
			return true
		}
	}
	return false
}

// dropPending returns out without the places held for pending draws (a
// cancelled run reports what it finished).
func dropPending(out []model.Benchmark, pend []*pendingDraw) []model.Benchmark {
	var kept []model.Benchmark
	for i, b := range out {
		if !isPending(pend, i) {
			kept = append(kept, b)
		}
	}
	return kept
}

// draw measures the other draws of the pending benchmarks, one context at a
// time, and fills their places in out.
func (s *Session) draw(ctx context.Context, out []model.Benchmark, pend []*pendingDraw, o Options) error {
	if len(pend) == 0 {
		return nil
	}
	err := s.do(func(g *gpu) error { return g.runDraws(ctx, pend, o) })
	if err != nil {
		return err
	}
	for _, pd := range pend {
		b := pd.benchmark()
		out[pd.at] = b
		if o.Progress != nil {
			o.Progress(suite.ProgressLine(b))
		}
	}
	return ctx.Err()
}

// runDraws takes draws 2..k of every pending benchmark, each draw in a
// context of its own made for it and destroyed after it. Where no other
// context can be made (a compute mode of one context per process, no
// memory), the remaining draws are taken in the session's context, and the
// benchmarks say so.
func (g *gpu) runDraws(ctx context.Context, pend []*pendingDraw, o Options) error {
	k := 1
	for _, pd := range pend {
		k = max(k, pd.draws)
	}
	for d := 1; d < k; d++ {
		h, err := g.openDraw()
		if err != nil {
			for _, pd := range pend {
				pd.note = fmt.Sprintf("draws %d-%d in the session's context: %v", d+1, pd.draws, err)
			}
			h = g
		}
		g.drawOnce(ctx, h, d, pend, o)
		if h != g {
			h.close()
			// The driver frees a destroyed context's host memory into
			// malloc's arenas, where it stays resident; hand it back, so
			// that the next draw's context does not add to the peak.
			C.malloc_trim(0)
		}
		if err := cu.SetCurrentContext(g.ctx); err != nil {
			return wrap("set the session's context after a draw", err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// drawOnce takes draw d of the pending benchmarks on h, preparing each case
// once for all its pending modes.
func (g *gpu) drawOnce(ctx context.Context, h *gpu, d int, pend []*pendingDraw, o Options) {
	var p *prepared
	var pc string
	var perr error
	defer func() {
		if p != nil {
			p.cleanup()
		}
	}()
	for _, pd := range pend {
		if pd.err != nil || d >= pd.draws {
			continue
		}
		if name := pd.c.Name(""); name != pc {
			if p != nil {
				p.cleanup()
			}
			pc = name
			if p, perr = pd.prep(h, pd.c); perr != nil {
				p = nil
			}
		}
		if perr != nil {
			pd.err = fmt.Errorf("draw %d of %d, in a context of its own: %w", d+1, pd.draws, perr)
			continue
		}
		t0 := time.Now()
		m, err := h.measure(ctx, p, pd.mode, suite.RulesFor(o).PerDraw(pd.draws), nil)
		pd.took += time.Since(t0)
		if err != nil {
			if ctx.Err() == nil {
				h.afterFault()
				pd.err = fmt.Errorf("draw %d of %d, in a context of its own: %w", d+1, pd.draws, err)
			}
			continue
		}
		pd.d.Add(m)
	}
}

// benchmark is the pending benchmark with its draws pooled.
func (pd *pendingDraw) benchmark() model.Benchmark {
	if pd.err != nil {
		return suite.ErrorBenchmark(pd.c, pd.mode, pd.err)
	}
	b := suite.ToBenchmark(pd.c, pd.d.Measurement(), pd.meta)
	pd.d.Record(b.Metrics)
	if pd.note != "" {
		b.Info["draws"] = pd.note
	}
	b.Info["took"] = pd.took.Round(time.Millisecond).String()
	return b
}

//go:build cuda

package kernels

import (
	"context"
	"time"

	"gorgonia.org/cu"
)

// A workFunc enqueues n back-to-back repetitions of the timed work on the
// session's stream. It must not synchronize.
type workFunc func(stream cu.Stream, n int) error

const (
	minWarmup   = 25 * time.Millisecond
	maxWarmup   = 2 * time.Second
	warmChunk   = 5 * time.Millisecond
	batchTarget = time.Millisecond
	batchLimit  = 1 << 20
)

// timeReps times n repetitions of w between the session's two events and
// returns the GPU time.
func (g *gpu) timeReps(w workFunc, n int) (time.Duration, error) {
	if err := wrap("cuEventRecord", g.start.Record(g.stream)); err != nil {
		return 0, err
	}
	if err := w(g.stream, n); err != nil {
		return 0, err
	}
	if err := wrap("cuEventRecord", g.stop.Record(g.stream)); err != nil {
		return 0, err
	}
	if err := wrap("cuEventSynchronize", g.stop.Synchronize()); err != nil {
		return 0, err
	}
	ms, err := g.start.Elapsed(g.stop)
	if err != nil {
		return 0, wrap("cuEventElapsedTime", err)
	}
	return time.Duration(ms * 1e6), nil
}

// flushL2 overwrites a buffer of twice the L2 size, so the next launch
// finds none of its data in L2. It is enqueued before the start event, so
// its time is outside the timed region.
func (g *gpu) flushL2() error {
	g.flushValue++
	return wrap("L2 flush (cuMemsetD32Async)", cu.MemsetD32Async(g.flush, g.flushValue, g.flushWords, g.stream))
}

// warmup runs w for at least 25 ms and until the SM clock stops rising
// (at most 2 s), and returns the time of one repetition when warm.
func (g *gpu) warmup(ctx context.Context, w workFunc) (per, took time.Duration, err error) {
	t0 := time.Now()
	d, err := g.timeReps(w, 1) // also the first launch: module JIT and lazy loading happen here
	if err != nil {
		return 0, 0, err
	}
	per = max(d, time.Microsecond)
	prev := g.mon.smClock()
	for {
		n := batchSize(per, warmChunk, batchLimit)
		d, err := g.timeReps(w, n)
		if err != nil {
			return 0, 0, err
		}
		per = max(d/time.Duration(n), time.Nanosecond)
		clk := g.mon.smClock()
		el := time.Since(t0)
		if ctx.Err() != nil {
			return 0, el, ctx.Err()
		}
		if el >= maxWarmup || (el >= minWarmup && clk <= prev) {
			return per, el, nil
		}
		prev = clk
	}
}

// measure warms w up and samples it in mode until the stop rule is met.
// Samples are in µs per op: a repetition of w is ops operations.
func (g *gpu) measure(ctx context.Context, w workFunc, mode string, ops int, r stopRule) (measurement, error) {
	per, warm, err := g.warmup(ctx, w)
	if err != nil {
		return measurement{}, err
	}
	n := 1
	if mode == ModeBatch {
		n = batchSize(per, batchTarget, batchLimit)
	}
	m := measurement{Mode: mode, BatchN: n, Warmup: warm}
	s := &sampler{rule: r}
	g.mon.takeReasons()
	t0 := time.Now()
	for {
		if mode == ModeCold {
			if err := g.flushL2(); err != nil {
				return m, err
			}
		}
		d, err := g.timeReps(w, n)
		if err != nil {
			return m, err
		}
		s.add(roundSample(float64(d)/1e3/float64(n*ops)), d)
		m.Clocks = append(m.Clocks, g.mon.sample())
		if stop, why := s.done(time.Since(t0)); stop {
			m.Stop = stopDetail(why, s.cv(), r)
			break
		}
		if err := ctx.Err(); err != nil {
			return m, err
		}
	}
	m.Samples = s.samples
	m.Throttle = g.mon.takeReasons()
	return m, nil
}

//go:build cuda

package kernels

import (
	"context"
	"errors"
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

// errBlockTimeout reports that the blocking kernel gave up before every
// launch of a sample was queued (the launch queue was full, or the CPU
// stalled): the sample would include CPU time and is discarded.
var errBlockTimeout = errors.New("the blocking kernel timed out before the launches were queued")

// timeReps times n repetitions of w between the session's two events and
// returns the GPU time. With blocked, the stream is held by the blocking
// kernel until everything is queued, so the events see back-to-back GPU work.
func (g *gpu) timeReps(w workFunc, n int, blocked bool) (time.Duration, error) {
	if blocked {
		g.flags.arm()
		if err := g.block.enqueue(g.stream, 1); err != nil {
			return 0, err
		}
	}
	err := g.enqueueTimed(w, n)
	if blocked {
		g.flags.release()
	}
	if err != nil {
		return 0, err
	}
	if err := wrap("cuEventSynchronize", g.stop.Synchronize()); err != nil {
		return 0, err
	}
	if blocked && g.flags.timedOut() {
		return 0, errBlockTimeout
	}
	ms, err := g.start.Elapsed(g.stop)
	if err != nil {
		return 0, wrap("cuEventElapsedTime", err)
	}
	return time.Duration(ms * 1e6), nil
}

func (g *gpu) enqueueTimed(w workFunc, n int) error {
	if err := wrap("cuEventRecord", g.start.Record(g.stream)); err != nil {
		return err
	}
	if err := w(g.stream, n); err != nil {
		return err
	}
	return wrap("cuEventRecord", g.stop.Record(g.stream))
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
	d, err := g.timeReps(w, 1, false) // also the first launch: module JIT and lazy loading happen here
	if err != nil {
		return 0, 0, err
	}
	per = max(d, time.Microsecond)
	prev := g.mon.smClock()
	for {
		n := batchSize(per, warmChunk, batchLimit)
		d, err := g.timeReps(w, n, false)
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

// blockedLimit caps the launches queued behind the blocking kernel: the
// driver's launch queue holds about a thousand, and a full queue would stall
// the CPU while the GPU waits. It halves after a timeout.
const blockedLimit = 512

// measure warms w up and samples it in mode until the stop rule is met.
// Samples are in µs per op: a repetition of w is ops operations. Blocked
// work is timed behind the blocking kernel (single launches); sequences of
// thousands of launches are not, so their time includes the CPU's launch
// rate, which is what they compare.
func (g *gpu) measure(ctx context.Context, w workFunc, mode string, ops int, blocked bool, r stopRule) (measurement, error) {
	per, warm, err := g.warmup(ctx, w)
	if err != nil {
		return measurement{}, err
	}
	limit := batchLimit
	if blocked {
		limit = blockedLimit
		if per, err = g.gpuTimePerRep(w, per, limit); err != nil {
			return measurement{}, err
		}
	}
	n := 1
	if mode == ModeBatch {
		n = batchSize(per, batchTarget, limit)
	}
	m := measurement{Mode: mode, BatchN: n, Warmup: warm, PaceMode: r.Pace}
	if m.Pace, err = newPacer(r.Pace); err != nil {
		return m, err
	}
	m.Pace.GiveUp = r.MaxTime / 2
	s := &sampler{rule: r}
	g.mon.takeReasons()
	t0 := time.Now()
	for {
		if mode == ModeCold {
			if err := g.flushL2(); err != nil {
				return m, err
			}
		}
		d, err := g.timeReps(w, n, blocked)
		if errors.Is(err, errBlockTimeout) {
			m.BlockTimeouts++
			if n = max(n/2, 1); m.BlockTimeouts > 20 {
				return m, err
			}
			m.BatchN = n
			continue
		}
		if err != nil {
			return m, err
		}
		clk := g.mon.sample()
		switch m.Pace.judge(g.mon.throttledNow(), time.Since(t0)) {
		case keepSample:
			s.add(roundSample(float64(d)/1e3/float64(n*ops)), d)
			m.Clocks = append(m.Clocks, clk)
		case restartSampling:
			m.Pace.discarded(len(s.samples))
			s, m.Clocks = &sampler{rule: r}, nil
		}
		if stop, why := s.done(time.Since(t0)); stop {
			m.Stop = stopDetail(why, s.cv(), r)
			break
		}
		if err := ctx.Err(); err != nil {
			return m, err
		}
		time.Sleep(m.Pace.gap(d)) // the GPU idles: it is synchronized
	}
	m.Samples = s.samples
	m.Throttle = g.mon.takeReasons()
	return m, nil
}

// gpuTimePerRep times a block-held batch to learn one repetition's GPU time
// (the warm-up's estimate of a tiny kernel is the CPU's launch rate).
func (g *gpu) gpuTimePerRep(w workFunc, per time.Duration, limit int) (time.Duration, error) {
	n := batchSize(per, batchTarget, limit)
	for range 5 {
		d, err := g.timeReps(w, n, true)
		if errors.Is(err, errBlockTimeout) {
			n = max(n/2, 1)
			continue
		}
		if err != nil {
			return 0, err
		}
		return max(d/time.Duration(n), time.Nanosecond), nil
	}
	return 0, errBlockTimeout
}

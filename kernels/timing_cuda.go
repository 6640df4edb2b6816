//go:build cuda

package kernels

import (
	"context"
	"time"

	"gorgonia.org/cu"

	"github.com/perfgate/perfgate/kernels/device"
	"github.com/perfgate/perfgate/kernels/measure"
)

// A workFunc enqueues n back-to-back repetitions of the timed work on the
// session's stream. It must not synchronize.
type workFunc func(stream cu.Stream, n int) error

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
		return 0, measure.ErrBlockTimeout
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

// FlushL2 overwrites a buffer of twice the L2 size, so the next launch
// finds none of its data in L2. It is enqueued before the start event, so
// its time is outside the timed region.
func (g *gpu) FlushL2() error {
	g.flushValue++
	return wrap("L2 flush (cuMemsetD32Async)", cu.MemsetD32Async(g.flush, g.flushValue, g.flushWords, g.stream))
}

// g is the device the timer of a prepared benchmark times it on.
var _ device.Device = (*gpu)(nil)

// Time times n repetitions of w on g's stream (timeReps).
func (g *gpu) Time(w device.Work, n int, held bool) (time.Duration, error) {
	return g.timeReps(func(_ cu.Stream, k int) error { return w(k) }, n, held)
}

// Capture records n repetitions of w, as enqueued on g's stream, into a
// graph that replays on it.
func (g *gpu) Capture(w device.Work, n int) (device.Graph, error) {
	gr, err := capture(func(_ cu.Stream, k int) error { return w(k) }, n, g.stream)
	if err != nil {
		return nil, err
	}
	return streamGraph{gr, g.stream}, nil
}

// A streamGraph is a captured graph replayed on one stream.
type streamGraph struct {
	gr     *graph
	stream cu.Stream
}

func (s streamGraph) Replay(n int) error { return s.gr.enqueue(s.stream, n) }
func (s streamGraph) Destroy()           { s.gr.destroy() }

// on binds a work to g's stream.
func (g *gpu) on(w workFunc) device.Work { return func(n int) error { return w(g.stream, n) } }

// measure samples p's work in timing mode with the measuring loop (package
// measure) and a device.Timer on g; draws, when set, spreads it over
// contexts (measure.Loop.Draws).
func (g *gpu) measure(ctx context.Context, p *prepared, mode string, r measure.Rule, draws func(time.Duration) int) (measure.Measurement, error) {
	t := device.NewTimer(g, p.work, p.chunks, !p.stream)
	limit := measure.HeldLimit(p.launches)
	if !p.stream {
		limit = measure.CapturedLimit(p.launches)
	}
	defer t.Close()
	l := measure.Loop{Timer: t, Monitor: g.mon, Now: time.Now, Sleep: time.Sleep, Draws: draws}
	m, err := l.Measure(ctx, mode, p.ops, limit, p.launches > 1, r)
	m.Timing = t.Timing(p.launches)
	return m, err
}

//go:build cuda

package kernels

import (
	"context"
	"fmt"
	"time"

	"gorgonia.org/cu"

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

// flushL2 overwrites a buffer of twice the L2 size, so the next launch
// finds none of its data in L2. It is enqueued before the start event, so
// its time is outside the timed region.
func (g *gpu) flushL2() error {
	g.flushValue++
	return wrap("L2 flush (cuMemsetD32Async)", cu.MemsetD32Async(g.flush, g.flushValue, g.flushWords, g.stream))
}

// A workTimer is the measuring loop's timer for one prepared work on g.
//
// Unless the work is a launch strategy timed as stream launches (stream),
// a sample's repetitions are captured once into a CUDA graph and each
// sample replays it: on the H100 the per-launch rate of stream launches is
// fixed per process at one of several levels 2–12% apart (a 4K add: 2.07,
// 2.12, 2.19 or 2.31 µs a launch in eight processes), whatever the events,
// buffers, module or push-buffer offset, while a replayed graph of the same
// launches ran 1.138–1.139 µs in all eight (docs/gpu.md, "Between
// processes"). A work that cannot be captured is timed as stream launches
// and says why in its timing. A work in chunks is held chunk by chunk, each
// behind its own blocking kernel, and its time is the sum of theirs.
type workTimer struct {
	g          *gpu
	w          workFunc
	chunks     []workFunc
	graphs     map[int]*graph // captured samples by repetitions; nil: stream launches
	captureErr error
}

var _ measure.Timer = (*workTimer)(nil)

func (t *workTimer) Issue(n int) (time.Duration, error) { return t.g.timeReps(t.w, n, false) }

func (t *workTimer) Held(n int, cold bool) (time.Duration, error) {
	if cold {
		if err := t.g.flushL2(); err != nil {
			return 0, err
		}
	}
	if t.graphs != nil {
		gr, ok := t.graphs[n]
		if !ok {
			var err error
			if gr, err = capture(t.w, n, t.g.stream); err != nil {
				t.captureErr, t.graphs = err, nil
				return t.Held(n, false) // flushed already
			}
			t.graphs[n] = gr
		}
		return t.g.timeReps(gr.enqueue, 1, true)
	}
	if len(t.chunks) == 0 {
		return t.g.timeReps(t.w, n, true)
	}
	var sum time.Duration
	for range n {
		for _, c := range t.chunks {
			d, err := t.g.timeReps(c, 1, true)
			if err != nil {
				return 0, err
			}
			sum += d
		}
	}
	return sum, nil
}

func (t *workTimer) close() {
	for _, gr := range t.graphs {
		gr.destroy()
	}
}

// timing says how the samples were timed, for info["timing"].
func (t *workTimer) timing(p *prepared) string {
	const held = "queued behind a blocking kernel (GPU time only)"
	switch {
	case t.graphs != nil:
		return "each sample replays a CUDA graph of its launches, " + held
	case len(t.chunks) > 0:
		return fmt.Sprintf("stream launches %s, %d a repetition in %d chunks of at most %d", held, p.launches, len(t.chunks), measure.ChunkLaunches)
	case t.captureErr != nil:
		return fmt.Sprintf("stream launches %s (not captured into a graph: %v)", held, t.captureErr)
	}
	return "stream launches " + held
}

// measure samples p's work in timing mode with the measuring loop (package
// measure); draws, when set, spreads it over contexts (measure.Loop.Draws).
func (g *gpu) measure(ctx context.Context, p *prepared, mode string, r measure.Rule, draws func(time.Duration) int) (measure.Measurement, error) {
	t := &workTimer{g: g, w: p.work, chunks: p.chunks}
	limit := measure.HeldLimit(p.launches)
	if !p.stream {
		t.graphs, limit = map[int]*graph{}, measure.CapturedLimit(p.launches)
	}
	defer t.close()
	l := measure.Loop{Timer: t, Monitor: g.mon, Now: time.Now, Sleep: time.Sleep, Draws: draws}
	m, err := l.Measure(ctx, mode, p.ops, limit, p.launches > 1, r)
	m.Timing = t.timing(p)
	return m, err
}

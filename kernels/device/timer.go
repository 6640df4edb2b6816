package device

import (
	"fmt"
	"time"

	"github.com/perfgate/perfgate/kernels/measure"
)

// A Timer is the measuring loop's timer for one prepared benchmark on a
// Device.
//
// Unless the work is timed as stream launches (NewTimer's capture false: a
// launch strategy under test, or a work that is a CUDA graph already), a
// sample's repetitions are captured once into a graph and each sample
// replays it: on the H100 the per-launch rate of stream launches is fixed per
// process at one of several levels 2–12% apart (a 4K add: 2.07, 2.12, 2.19
// or 2.31 µs a launch in eight processes), whatever the events, buffers,
// module or push-buffer offset, while a replayed graph of the same launches
// ran 1.138–1.139 µs in all eight (docs/gpu.md, "Between processes"). A work
// that cannot be captured is timed as stream launches and says why in its
// Timing. A work in chunks is held chunk by chunk, each behind its own
// blocking kernel, and its time is the sum of theirs.
type Timer struct {
	dev        Device
	work       Work
	chunks     []Work
	graphs     map[int]Graph // captured samples by repetitions; nil: stream launches
	captureErr error
}

var _ measure.Timer = (*Timer)(nil)

// NewTimer returns the timer of work on d: its repetitions captured into
// graphs when capture is set, else timed as stream launches, whole or (with
// chunks: one repetition in pieces, in order) chunk by chunk.
func NewTimer(d Device, work Work, chunks []Work, capture bool) *Timer {
	t := &Timer{dev: d, work: work, chunks: chunks}
	if capture {
		t.graphs = map[int]Graph{}
	}
	return t
}

// Issue times n repetitions as the CPU issues them, without the blocking
// kernel: the warm-up's rough per-repetition time.
func (t *Timer) Issue(n int) (time.Duration, error) { return t.dev.Time(t.work, n, false) }

// Held times n repetitions held behind the blocking kernel, after an L2
// flush when cold.
func (t *Timer) Held(n int, cold bool) (time.Duration, error) {
	if cold {
		if err := t.dev.FlushL2(); err != nil {
			return 0, err
		}
	}
	if t.graphs != nil {
		gr, ok := t.graphs[n]
		if !ok {
			var err error
			if gr, err = t.dev.Capture(t.work, n); err != nil {
				t.captureErr, t.graphs = err, nil
				return t.Held(n, false) // flushed already
			}
			t.graphs[n] = gr
		}
		return t.dev.Time(gr.Replay, 1, true)
	}
	if len(t.chunks) == 0 {
		return t.dev.Time(t.work, n, true)
	}
	var sum time.Duration
	for range n {
		for _, c := range t.chunks {
			d, err := t.dev.Time(c, 1, true)
			if err != nil {
				return 0, err
			}
			sum += d
		}
	}
	return sum, nil
}

// Close destroys the captured graphs.
func (t *Timer) Close() {
	for _, gr := range t.graphs {
		gr.Destroy()
	}
}

// Timing says how the samples were timed, for info["timing"]; launches is
// the number of launches of one repetition.
func (t *Timer) Timing(launches int) string {
	const held = "queued behind a blocking kernel (GPU time only)"
	switch {
	case t.graphs != nil:
		return "each sample replays a CUDA graph of its launches, " + held
	case len(t.chunks) > 0:
		return fmt.Sprintf("stream launches %s, %d a repetition in %d chunks of at most %d", held, launches, len(t.chunks), measure.ChunkLaunches)
	case t.captureErr != nil:
		return fmt.Sprintf("stream launches %s (not captured into a graph: %v)", held, t.captureErr)
	}
	return "stream launches " + held
}

package device

import "time"

// A Work enqueues n back-to-back repetitions of a benchmark's work on the
// device's stream. It must not synchronize.
type Work func(n int) error

// A Graph is work captured once, replayed by one launch.
type Graph interface {
	// Replay enqueues n replays of the graph.
	Replay(n int) error
	// Destroy frees the graph.
	Destroy()
}

// A Device times work on one stream of one GPU.
type Device interface {
	// Time enqueues n repetitions of w between two events and returns the
	// GPU time between them. Held, the stream is held by the blocking
	// kernel until everything is queued, so the events see back-to-back
	// GPU work (measure.ErrBlockTimeout when the blocking kernel gave up
	// first); else the work runs as the CPU issues it.
	Time(w Work, n int, held bool) (time.Duration, error)
	// FlushL2 enqueues a write over twice the L2, outside the timed region
	// of the next Time, so that it finds none of its data in L2.
	FlushL2() error
	// Capture records n repetitions of w into a graph.
	Capture(w Work, n int) (Graph, error)
}

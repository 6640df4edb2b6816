package device

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/kernels/measure"
)

// A fakeDevice runs works on the CPU: a work adds its GPU time to busy and
// its call to log; Time returns the busy time the work added. A held Time
// of more than maxHeld repetitions (0: no limit) times out, and Capture
// fails with captureErr when set.
type fakeDevice struct {
	log        []string
	busy       time.Duration
	maxHeld    int
	captureErr error
	graphs     int
	destroyed  int
}

func (f *fakeDevice) Time(w Work, n int, held bool) (time.Duration, error) {
	f.log = append(f.log, fmt.Sprintf("time %d held=%v", n, held))
	t0 := f.busy
	if err := w(n); err != nil {
		return 0, err
	}
	if held && f.maxHeld > 0 && f.busy-t0 > time.Duration(f.maxHeld)*time.Microsecond {
		return 0, measure.ErrBlockTimeout
	}
	return f.busy - t0, nil
}

func (f *fakeDevice) FlushL2() error {
	f.log = append(f.log, "flush")
	return nil
}

func (f *fakeDevice) Capture(w Work, n int) (Graph, error) {
	f.log = append(f.log, fmt.Sprintf("capture %d", n))
	if f.captureErr != nil {
		return nil, f.captureErr
	}
	f.graphs++
	return &fakeGraph{f: f, id: f.graphs, reps: n, w: w}, nil
}

// A fakeGraph replays its captured repetitions of w.
type fakeGraph struct {
	f    *fakeDevice
	id   int
	reps int
	w    Work
}

func (g *fakeGraph) Replay(n int) error {
	g.f.log = append(g.f.log, fmt.Sprintf("replay graph %d ×%d", g.id, n))
	g.f.busy += time.Duration(n*g.reps) * time.Microsecond
	return nil
}

func (g *fakeGraph) Destroy() { g.f.destroyed++ }

// work is a work of 1 µs a repetition that logs its calls as name.
func (f *fakeDevice) work(name string) Work {
	return func(n int) error {
		f.log = append(f.log, fmt.Sprintf("%s %d", name, n))
		f.busy += time.Duration(n) * time.Microsecond
		return nil
	}
}

func (f *fakeDevice) take() string {
	s := strings.Join(f.log, "; ")
	f.log = nil
	return s
}

func TestTimerReplaysOneGraphPerBatchSize(t *testing.T) {
	f := &fakeDevice{}
	tm := NewTimer(f, f.work("work"), nil, true)
	for _, tc := range []struct {
		n    int
		cold bool
		want string
		d    time.Duration
	}{
		{4, true, "flush; capture 4; time 1 held=true; replay graph 1 ×1", 4 * time.Microsecond},
		{4, false, "time 1 held=true; replay graph 1 ×1", 4 * time.Microsecond},
		{8, false, "capture 8; time 1 held=true; replay graph 2 ×1", 8 * time.Microsecond},
		{4, true, "flush; time 1 held=true; replay graph 1 ×1", 4 * time.Microsecond},
	} {
		d, err := tm.Held(tc.n, tc.cold)
		if got := f.take(); err != nil || got != tc.want || d != tc.d {
			t.Errorf("Held(%d, %v) = %v, %v; calls %q, want %v and %q", tc.n, tc.cold, d, err, got, tc.d, tc.want)
		}
	}
	if d, err := tm.Issue(3); err != nil || d != 3*time.Microsecond || f.take() != "time 3 held=false; work 3" {
		t.Errorf("Issue(3) = %v, %v: the warm-up issues the work itself, not a graph", d, err)
	}
	if got := tm.Timing(1); got != "each sample replays a CUDA graph of its launches, queued behind a blocking kernel (GPU time only)" {
		t.Errorf("Timing = %q", got)
	}
	tm.Close()
	if f.destroyed != 2 {
		t.Errorf("Close destroyed %d graphs, want the 2 captured", f.destroyed)
	}
}

// TestTimerFallsBackToStreamLaunches: a work that cannot be captured is
// timed as stream launches from then on (flushed once), and says why.
func TestTimerFallsBackToStreamLaunches(t *testing.T) {
	f := &fakeDevice{captureErr: errors.New("operation not permitted when stream is capturing")}
	tm := NewTimer(f, f.work("work"), nil, true)
	if d, err := tm.Held(5, true); err != nil || d != 5*time.Microsecond {
		t.Fatalf("Held = %v, %v", d, err)
	}
	if got, want := f.take(), "flush; capture 5; time 5 held=true; work 5"; got != want {
		t.Errorf("calls %q, want %q", got, want)
	}
	tm.Held(5, true)
	if got, want := f.take(), "flush; time 5 held=true; work 5"; got != want {
		t.Errorf("after the failed capture: calls %q, want %q (no second capture)", got, want)
	}
	want := "stream launches queued behind a blocking kernel (GPU time only) (not captured into a graph: operation not permitted when stream is capturing)"
	if got := tm.Timing(1); got != want {
		t.Errorf("Timing = %q, want %q", got, want)
	}
	tm.Close()
	if f.destroyed != 0 {
		t.Errorf("destroyed %d graphs, none was made", f.destroyed)
	}
}

// TestTimerChunks: a repetition in chunks is held chunk by chunk, each on
// its own, and a sample is the sum of their times.
func TestTimerChunks(t *testing.T) {
	f := &fakeDevice{}
	tm := NewTimer(f, f.work("work"), []Work{f.work("a"), f.work("b"), f.work("c")}, false)
	d, err := tm.Held(2, true)
	want := "flush; time 1 held=true; a 1; time 1 held=true; b 1; time 1 held=true; c 1; time 1 held=true; a 1; time 1 held=true; b 1; time 1 held=true; c 1"
	if got := f.take(); err != nil || got != want || d != 6*time.Microsecond {
		t.Errorf("Held(2) = %v, %v; calls %q, want 6µs and %q", d, err, got, want)
	}
	if got := tm.Timing(1500); got != fmt.Sprintf("stream launches queued behind a blocking kernel (GPU time only), 1500 a repetition in 3 chunks of at most %d", measure.ChunkLaunches) {
		t.Errorf("Timing = %q", got)
	}
	boom := errors.New("launch failed")
	tm = NewTimer(f, f.work("work"), []Work{f.work("a"), func(int) error { return boom }}, false)
	if _, err := tm.Held(3, false); !errors.Is(err, boom) {
		t.Errorf("a failing chunk: err %v, want %v", err, boom)
	}
}

func TestTimerStreamLaunches(t *testing.T) {
	f := &fakeDevice{}
	tm := NewTimer(f, f.work("work"), nil, false)
	if d, err := tm.Held(7, false); err != nil || d != 7*time.Microsecond || f.take() != "time 7 held=true; work 7" {
		t.Errorf("Held(7) = %v, %v", d, err)
	}
	if got := tm.Timing(1); got != "stream launches queued behind a blocking kernel (GPU time only)" {
		t.Errorf("Timing = %q", got)
	}
}

// A fakeMonitor reads a steady SM clock and no throttling.
type fakeMonitor struct{}

func (fakeMonitor) SMClock() float64      { return 1980 }
func (fakeMonitor) Sample() float64       { return 1980 }
func (fakeMonitor) ThrottledNow() bool    { return false }
func (fakeMonitor) TakeReasons() []string { return nil }

// TestLoopOnTimer runs the measuring loop on a Timer over the fake device:
// a held batch of more than 100 µs times out, so the batch timing settles
// at most at 100 repetitions of 1 µs, every sample a replayed graph.
func TestLoopOnTimer(t *testing.T) {
	f := &fakeDevice{maxHeld: 100}
	tm := NewTimer(f, f.work("work"), nil, true)
	defer tm.Close()
	var wall time.Duration
	l := measure.Loop{Timer: tm, Monitor: fakeMonitor{}, Now: func() time.Time { return time.Unix(0, 0).Add(wall + f.busy) },
		Sleep: func(d time.Duration) { wall += d }}
	r := measure.RuleFor(measure.Budget{CI: true})
	m, err := l.Measure(context.Background(), measure.Batch, 1, measure.CapturedLimit(1), false, r)
	if err != nil {
		t.Fatal(err)
	}
	if m.BatchN > 100 || m.BlockTimeouts == 0 || len(m.Samples) != measure.CIMaxSamples {
		t.Errorf("BatchN %d, %d timeouts, %d samples; want ≤ 100, ≥ 1, %d", m.BatchN, m.BlockTimeouts, len(m.Samples), measure.CIMaxSamples)
	}
	for _, v := range m.Samples {
		if v != 1 {
			t.Fatalf("sample %v µs a repetition, want 1", v)
		}
	}
	if !strings.Contains(strings.Join(f.log, ";"), "replay graph") || f.graphs < 2 {
		t.Errorf("%d graphs captured; the samples must replay them", f.graphs)
	}
}

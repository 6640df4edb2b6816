package compare

import (
	"runtime"
	"testing"
	"time"
)

// TestPoolsLetGoOfRuns checks that the pools do not hold the runs: once
// the pools are made, the runs' benchmarks can be collected while the
// pools are judged (perfgate compare drops the runs; holding them kept
// 10k × 100 per side's live heap 3–4 MB higher and its peak RSS at 3.4×
// the input, over the goal of 3×).
func TestPoolsLetGoOfRuns(t *testing.T) {
	base, cand := synth(50, 10, 0.03, 1, func(int) float64 { return 1 })
	collected := make(chan struct{}, len(base)+len(cand))
	for _, r := range append(append(base[:0:0], base...), cand...) {
		runtime.SetFinalizer(&r.Benchmarks[0], func(any) { collected <- struct{}{} })
	}
	ps := pools(base, cand, DefaultOptions())
	want := len(base) + len(cand)
	base, cand = nil, nil
	got := 0
	for deadline := time.Now().Add(5 * time.Second); got < want && time.Now().Before(deadline); {
		runtime.GC()
		select {
		case <-collected:
			got++
		case <-time.After(10 * time.Millisecond):
		}
	}
	if got < want {
		t.Errorf("%d of %d runs' benchmarks collected while the pools were alive: the pools hold the runs", got, want)
	}
	if len(ps) != 50 || len(ps[0].base.segments) == 0 {
		t.Fatalf("pools: %d, first with %d baseline segments", len(ps), len(ps[0].base.segments))
	}
	runtime.KeepAlive(ps)
}

package measure

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// A fakeGPU is the measuring loop's Timer, Monitor and wall clock: each
// repetition takes per of GPU time (times jitter[i] for the i-th held call,
// cycling), a held batch of more than maxHeld repetitions times out, and the
// wall clock advances by the GPU time of every call plus a fixed overhead.
type fakeGPU struct {
	per      time.Duration
	jitter   []float64
	maxHeld  int // 0: no limit
	clocks   []float64
	throttle func(call int) bool

	elapsed time.Duration
	calls   []heldCall
	issued  int
	reads   int
}

type heldCall struct {
	n    int
	cold bool
}

const fakeOverhead = 20 * time.Microsecond

func (f *fakeGPU) Issue(n int) (time.Duration, error) {
	f.issued++
	d := time.Duration(n) * f.per
	f.elapsed += d + fakeOverhead
	return d, nil
}

func (f *fakeGPU) Held(n int, cold bool) (time.Duration, error) {
	f.calls = append(f.calls, heldCall{n, cold})
	f.elapsed += fakeOverhead
	if f.maxHeld > 0 && n > f.maxHeld {
		f.elapsed += 50 * time.Millisecond // the blocking kernel's timeout
		return 0, ErrBlockTimeout
	}
	d := time.Duration(n) * f.per
	if len(f.jitter) > 0 {
		d = time.Duration(float64(d) * f.jitter[(len(f.calls)-1)%len(f.jitter)])
	}
	f.elapsed += d
	return d, nil
}

func (f *fakeGPU) SMClock() float64 {
	f.reads++
	if len(f.clocks) == 0 {
		return 1980
	}
	return f.clocks[min(f.reads-1, len(f.clocks)-1)]
}

func (f *fakeGPU) Sample() float64 { return 1980 }

func (f *fakeGPU) ThrottledNow() bool { return f.throttle != nil && f.throttle(len(f.calls)) }

func (f *fakeGPU) TakeReasons() []string { return nil }

func (f *fakeGPU) loop() Loop {
	t0 := time.Unix(0, 0)
	return Loop{Timer: f, Monitor: f, Now: func() time.Time { return t0.Add(f.elapsed) },
		Sleep: func(d time.Duration) { f.elapsed += d }}
}

var ciRule = RuleFor(Budget{CI: true})

func TestLoopBatchSize(t *testing.T) {
	for _, tt := range []struct {
		name     string
		per      time.Duration
		launches int
		wantN    int
	}{
		{"a 2.2 µs launch: 1 ms of launches", 2200 * time.Nanosecond, 1, 455},
		{"a 1 µs launch: capped at the launch queue", time.Microsecond, 1, blockedLimit},
		{"a 1 µs launch replayed from a graph: 1 ms of launches", time.Microsecond, -1, 1000},
		{"128 launches a repetition: 4 fit the queue", 10 * time.Microsecond, 128, 4},
		{"a sequence longer than the queue: one repetition (chunked)", 22 * time.Millisecond, 10000, 1},
		{"a long kernel: one launch", 3 * time.Millisecond, 1, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeGPU{per: tt.per}
			limit := HeldLimit(tt.launches)
			if tt.launches < 0 { // captured
				limit = CapturedLimit(1)
			}
			m, err := f.loop().Measure(context.Background(), Batch, 1, limit, tt.launches > 1, ciRule)
			if err != nil {
				t.Fatal(err)
			}
			if m.BatchN != tt.wantN {
				t.Errorf("BatchN = %d, want %d", m.BatchN, tt.wantN)
			}
			for _, c := range f.calls[1:] { // the first held call learns the GPU time per repetition
				if c.n != tt.wantN || c.cold {
					t.Fatalf("held calls %v: want every sample %d repetitions, warm", f.calls, tt.wantN)
				}
			}
			want := RoundSample(float64(tt.per) / 1e3)
			if len(m.Samples) == 0 || m.Samples[0] != want {
				t.Errorf("samples %v, want µs per op %v", m.Samples[:min(3, len(m.Samples))], want)
			}
		})
	}
}

func TestLoopColdFlushesEverySample(t *testing.T) {
	f := &fakeGPU{per: 5 * time.Microsecond}
	m, err := f.loop().Measure(context.Background(), Cold, 1, HeldLimit(1), false, ciRule)
	if err != nil {
		t.Fatal(err)
	}
	if m.BatchN != 1 || len(m.Samples) != CIMaxSamples {
		t.Fatalf("BatchN %d, %d samples; want 1 launch a sample, %d samples", m.BatchN, len(m.Samples), CIMaxSamples)
	}
	cold := 0
	for _, c := range f.calls {
		if c.cold {
			cold++
			if c.n != 1 {
				t.Errorf("cold sample of %d launches", c.n)
			}
		}
	}
	if cold != CIMaxSamples {
		t.Errorf("%d cold (flushed) held calls, want one per sample (%d)", cold, CIMaxSamples)
	}
}

func TestLoopOpsPerRepetition(t *testing.T) {
	// 500 ops of 2.2 µs a repetition (a chunk of launch_per_op): samples are µs per op.
	f := &fakeGPU{per: 1100 * time.Microsecond}
	m, err := f.loop().Measure(context.Background(), Batch, 500, HeldLimit(10000), true, ciRule)
	if err != nil {
		t.Fatal(err)
	}
	if m.Samples[0] != 2.2 {
		t.Errorf("sample %v µs, want 2.2 µs per op", m.Samples[0])
	}
}

func TestLoopBlockTimeouts(t *testing.T) {
	t.Run("halves the batch until it fits", func(t *testing.T) {
		f := &fakeGPU{per: 2 * time.Microsecond, maxHeld: 150}
		m, err := f.loop().Measure(context.Background(), Batch, 1, HeldLimit(1), false, ciRule)
		if err != nil {
			t.Fatal(err)
		}
		if m.BatchN > 150 || m.BatchN < 75 || m.BlockTimeouts == 0 || len(m.Samples) != CIMaxSamples {
			t.Errorf("BatchN %d after %d timeouts, %d samples; want ≤ 150, ≥ 1 timeout, %d samples", m.BatchN, m.BlockTimeouts, len(m.Samples), CIMaxSamples)
		}
	})
	t.Run("gives up", func(t *testing.T) {
		f := &fakeGPU{per: time.Microsecond}
		g := &alwaysTimeout{f}
		l := f.loop()
		l.Timer = g
		_, err := l.Measure(context.Background(), Batch, 1, HeldLimit(1), false, ciRule)
		if !errors.Is(err, ErrBlockTimeout) {
			t.Fatalf("err %v, want ErrBlockTimeout", err)
		}
	})
}

// alwaysTimeout is a GPU whose blocking kernel always gives up.
type alwaysTimeout struct{ *fakeGPU }

func (a *alwaysTimeout) Held(n int, cold bool) (time.Duration, error) {
	a.calls = append(a.calls, heldCall{n, cold})
	return 0, ErrBlockTimeout
}

func TestLoopStopRules(t *testing.T) {
	for _, tt := range []struct {
		name   string
		per    time.Duration
		jitter []float64
		rule   Rule
		want   string
		wantN  int
	}{
		{"ci: a quiet launch-bound kernel stops on the sample cap", 2 * time.Microsecond, nil, ciRule, "max-samples 40", 40},
		{"ci: a quiet 20 ms kernel stops on rel-std after 10", 20 * time.Millisecond, nil, ciRule, "rel-std", 10},
		{"ci: a noisy kernel stops on the sample cap", 20 * time.Millisecond, []float64{0.9, 1.1, 1, 0.95, 1.05}, ciRule, "max-samples 40", 40},
		{"default: a quiet 1 ms sample needs 0.5 s of GPU time", time.Millisecond, nil, RuleFor(Budget{}), "rel-std", 500},
		{"max-time caps a slow benchmark", 200 * time.Millisecond, []float64{0.9, 1.1}, RuleFor(Budget{MaxTime: 2 * time.Second}), "max-time", 10},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeGPU{per: tt.per, jitter: tt.jitter}
			m, err := f.loop().Measure(context.Background(), Cold, 1, HeldLimit(1), false, tt.rule)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(m.Stop, tt.want) || len(m.Samples) != tt.wantN {
				t.Errorf("stopped after %d samples: %q; want %d, %q", len(m.Samples), m.Stop, tt.wantN, tt.want)
			}
		})
	}
}

func TestLoopWarmsUpUntilTheClockSettles(t *testing.T) {
	ramp := []float64{1200, 1400, 1600, 1800, 1980, 1980}
	f := &fakeGPU{per: 5 * time.Millisecond, clocks: ramp} // 5 ms chunks: the ramp outlasts the 25 ms minimum
	m, err := f.loop().Measure(context.Background(), Cold, 1, HeldLimit(1), false, ciRule)
	if err != nil {
		t.Fatal(err)
	}
	if f.reads != len(ramp) || m.Warmup < 25*time.Millisecond {
		t.Errorf("warm-up read the clock %d times over %v; want %d reads (until it stops rising), ≥ 25 ms", f.reads, m.Warmup, len(ramp))
	}
}

func TestLoopThrottledSamplesRetaken(t *testing.T) {
	// Samples 5 to 8 are taken while the GPU is power-capped: auto pacing
	// throws away what it had, idles, and the benchmark still ends with the
	// sample cap's worth of samples, none of them from the capped stretch.
	f := &fakeGPU{per: 20 * time.Millisecond, throttle: func(call int) bool { return call >= 6 && call <= 9 }}
	m, err := f.loop().Measure(context.Background(), Cold, 1, HeldLimit(1), false, ciRule)
	if err != nil {
		t.Fatal(err)
	}
	if m.Pace.Ratio == 0 || m.Pace.Retaken == 0 || len(m.Samples) < ciRule.MinSamples {
		t.Errorf("pace %+v, %d samples; want a ratio > 0, samples retaken, ≥ %d samples", m.Pace, len(m.Samples), ciRule.MinSamples)
	}
}

func TestChunkRanges(t *testing.T) {
	for _, tt := range []struct {
		name       string
		total, per int
		want       []UnitRange
	}{
		{"fits one chunk: timed whole", 128, 1, nil},
		{"exactly one chunk", 500, 1, nil},
		{"launch_per_op: 20 chunks of 500", 10000, 1, nil},
		{"decode at L=4096: 8 of 500 and the rest", 4096, 1, nil},
		{"mixedops unfused: 50 iterations-pairs of 10 launches", 500, 10, nil},
		{"mixedops fused: 250 pairs of 2 launches", 500, 2, []UnitRange{{0, 250}, {250, 250}}},
		{"units larger than a chunk: one unit each", 3, 600, []UnitRange{{0, 1}, {1, 1}, {2, 1}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := ChunkRanges(tt.total, tt.per)
			next, launches := 0, 0
			for _, r := range got {
				if r.From != next || r.Count < 1 || (r.Count*tt.per > ChunkLaunches && r.Count != 1) {
					t.Fatalf("ranges %v: not consecutive, or a chunk over %d launches", got, ChunkLaunches)
				}
				next += r.Count
				launches = max(launches, r.Count*tt.per)
			}
			if got != nil && next != tt.total {
				t.Fatalf("ranges %v cover %d units, want %d", got, next, tt.total)
			}
			if tt.want != nil && !slices.Equal(got, tt.want) {
				t.Errorf("ranges %v, want %v", got, tt.want)
			}
			if (got == nil) != (tt.total*tt.per <= ChunkLaunches) {
				t.Errorf("%d ranges for %d launches", len(got), tt.total*tt.per)
			}
		})
	}
	if n := len(ChunkRanges(10000, 1)); n != 20 {
		t.Errorf("launch_per_op: %d chunks, want 20", n)
	}
	if r := ChunkRanges(4096, 1); len(r) != 9 || r[8] != (UnitRange{4000, 96}) {
		t.Errorf("decode L=4096: %v, want 8 chunks of 500 and {4000 96}", r)
	}
}

func TestHeldLimit(t *testing.T) {
	for launches, want := range map[int]int{0: 512, 1: 512, 3: 170, 128: 4, 512: 1, 10000: 1} {
		if got := HeldLimit(launches); got != want {
			t.Errorf("HeldLimit(%d) = %d, want %d", launches, got, want)
		}
	}
	for launches, want := range map[int]int{1: 8192, 3: 2730, 1000: 8, 5000: 1, 10000: 1} {
		if got := CapturedLimit(launches); got != want {
			t.Errorf("CapturedLimit(%d) = %d, want %d", launches, got, want)
		}
	}
}

func TestLoopAsIssued(t *testing.T) {
	f := &fakeGPU{per: 1100 * time.Microsecond}
	m, err := f.loop().Measure(context.Background(), Batch, 500, HeldLimit(500), true, ciRule)
	if err != nil {
		t.Fatal(err)
	}
	if m.AsIssued != 2.2 {
		t.Errorf("AsIssued = %v µs per op, want the warm-up's 2.2", m.AsIssued)
	}
	f = &fakeGPU{per: 2 * time.Microsecond}
	if m, _ := f.loop().Measure(context.Background(), Batch, 1, CapturedLimit(1), false, ciRule); m.AsIssued != 0 {
		t.Errorf("a single launch has AsIssued %v, want none", m.AsIssued)
	}
}

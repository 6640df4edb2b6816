package measure

import (
	"math"
	"slices"
	"testing"
	"time"
)

func TestSamplerStops(t *testing.T) {
	rule := Rule{MinSamples: 10, MinGPU: 10 * time.Millisecond, MaxTime: time.Second, MaxSamples: 1000,
		TargetCV: 0.005, StableSpread: 0.02, StableWindow: 50}
	tests := []struct {
		name    string
		sample  func(i int) float64
		gpu     time.Duration // per sample
		elapsed func(n int) time.Duration
		want    string
		wantN   int // < 0: at most -wantN
	}{
		{"quiet kernel stops on rel-std once min GPU time is in",
			func(i int) float64 { return 100 + 0.1*float64(i%3-1) }, time.Millisecond,
			func(int) time.Duration { return 0 }, stopCV, 10},
		{"min GPU time holds back a quiet tiny kernel",
			func(i int) float64 { return 5 + 0.001*float64(i%3-1) }, 5 * time.Microsecond,
			func(int) time.Duration { return 0 }, stopCV, 2000},
		{"noisy kernel stops once its rel-std is stable",
			func(i int) float64 { return 100 + 10*float64(i%5-2) }, time.Millisecond,
			func(int) time.Duration { return 0 }, stopStable, -200},
		{"wall-clock cap",
			func(i int) float64 { return 100 + 10*float64(i%5-2) }, time.Microsecond,
			func(n int) time.Duration { return time.Duration(n) * 100 * time.Millisecond }, stopMaxTime, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rule
			if tt.wantN == 2000 {
				r.MaxSamples = 5000
			}
			s := &Sampler{Rule: r}
			for i := 0; i < 10000; i++ {
				s.Add(tt.sample(i), tt.gpu)
				if stop, why := s.Done(tt.elapsed(len(s.Samples))); stop {
					n := len(s.Samples)
					if why != tt.want || (tt.wantN > 0 && n != tt.wantN) || (tt.wantN < 0 && n > -tt.wantN) {
						t.Fatalf("stopped after %d samples because %s; want %d because %s (cv %.4f)", len(s.Samples), why, tt.wantN, tt.want, s.CV())
					}
					return
				}
			}
			t.Fatal("never stopped")
		})
	}
}

func TestSamplerMaxSamples(t *testing.T) {
	s := &Sampler{Rule: Rule{MinSamples: 10, MinGPU: time.Hour, MaxTime: time.Hour, MaxSamples: 25}}
	for i := 0; i < 25; i++ {
		s.Add(float64(i), time.Microsecond)
	}
	if stop, why := s.Done(0); !stop || why != stopMaxN {
		t.Fatalf("done = %v %q, want true %q", stop, why, stopMaxN)
	}
}

func TestSamplerCVMatchesTwoPass(t *testing.T) {
	x := []float64{3.1, 2.9, 3.4, 3.0, 2.8, 3.3, 3.05}
	s := &Sampler{Rule: Rule{MinSamples: 100}}
	for _, v := range x {
		s.Add(v, 0)
	}
	if got, want := s.CV(), RelStd(x); math.Abs(got-want) > 1e-12 {
		t.Fatalf("running CV %v, two-pass %v", got, want)
	}
}

func TestClockFilter(t *testing.T) {
	tests := []struct {
		name        string
		samples     []float64
		clocks      []float64
		wantKept    []float64
		wantDropped int
		wantMedian  float64
	}{
		{"drops samples below 90% of the median clock",
			[]float64{1, 2, 3, 4, 5}, []float64{1980, 1980, 1700, 1980, 1785},
			[]float64{1, 2, 4, 5}, 1, 1980},
		{"exactly 90% is kept", []float64{1, 2, 3}, []float64{1000, 900, 1000}, []float64{1, 2, 3}, 0, 1000},
		{"unknown clocks never drop", []float64{1, 2}, []float64{0, 0}, []float64{1, 2}, 0, 0},
		{"unknown clocks are ignored for the median", []float64{1, 2, 3}, []float64{0, 1980, 1000}, []float64{1, 2}, 1, 1490},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kept, dropped, med := ClockFilter(tt.samples, tt.clocks, 0.9)
			if !slices.Equal(kept, tt.wantKept) || dropped != tt.wantDropped || med != tt.wantMedian {
				t.Fatalf("got %v %d %v, want %v %d %v", kept, dropped, med, tt.wantKept, tt.wantDropped, tt.wantMedian)
			}
		})
	}
}

func TestManyDrops(t *testing.T) {
	for _, tt := range []struct {
		dropped, total int
		want           bool
	}{{0, 100, false}, {5, 100, false}, {6, 100, true}, {0, 0, false}} {
		if got := ManyDrops(tt.dropped, tt.total); got != tt.want {
			t.Errorf("ManyDrops(%d, %d) = %v, want %v", tt.dropped, tt.total, got, tt.want)
		}
	}
}

func TestBatchSize(t *testing.T) {
	tests := []struct {
		per, target time.Duration
		limit, want int
	}{
		{3 * time.Microsecond, time.Millisecond, 512, 334},
		{2 * time.Millisecond, time.Millisecond, 512, 1},
		{time.Millisecond, time.Millisecond, 512, 1},
		{100 * time.Nanosecond, time.Millisecond, 512, 512},
		{0, time.Millisecond, 64, 64},
	}
	for _, tt := range tests {
		if got := BatchSize(tt.per, tt.target, tt.limit); got != tt.want {
			t.Errorf("BatchSize(%v, %v, %d) = %d, want %d", tt.per, tt.target, tt.limit, got, tt.want)
		}
	}
}

func TestRulesFor(t *testing.T) {
	if r := RuleFor(Budget{}); r.MinSamples != 10 || r.MinGPU != 500*time.Millisecond || r.MaxTime != 15*time.Second || r.TargetCV != 0.005 {
		t.Errorf("default rule %+v is not nvbench's 10 samples, 0.5 s, 15 s, 0.5%%", r)
	}
	if r := RuleFor(Budget{Fast: true, MaxTime: 3 * time.Second}); r.MaxTime != 3*time.Second || r.MinGPU >= 500*time.Millisecond {
		t.Errorf("fast rule with --max-time 3s: %+v", r)
	}
	if r := RuleFor(Budget{CI: true}); r.MaxSamples != CIMaxSamples || r.MaxTime != 5*time.Second {
		t.Errorf("ci rule %+v: want at most %d samples, 5 s", r, CIMaxSamples)
	}
	if r := RuleFor(Budget{CI: true, Fast: true}); r.MaxSamples != CIMaxSamples {
		t.Errorf("ci rule with --fast raised the sample cap: %+v", r)
	}
}

// TestCIStopsOnSamples feeds the ci rule a launch-bound sequence: 10,000
// launches of ~5 µs, 50 ms a sample, noisy enough (±3%) that the CV target
// is never met. It must stop on the sample cap, not on the wall clock.
func TestCIStopsOnSamples(t *testing.T) {
	s := &Sampler{Rule: RuleFor(Budget{CI: true})}
	var elapsed time.Duration
	for i := 0; ; i++ {
		v := 50e3 * (1 + 0.03*float64(i%7-3)/3)
		s.Add(v, 50*time.Millisecond)
		elapsed += 50 * time.Millisecond
		if done, why := s.Done(elapsed); done {
			if why != stopMaxN && why != stopStable {
				t.Errorf("stopped by %s after %d samples, %v; want the sample cap", why, len(s.Samples), elapsed)
			}
			if elapsed > 3*time.Second {
				t.Errorf("took %v of samples", elapsed)
			}
			return
		}
	}
}

func TestMedian(t *testing.T) {
	for _, tt := range []struct {
		x    []float64
		want float64
	}{{[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}, {[]float64{7}, 7}} {
		if got := Median(tt.x); got != tt.want {
			t.Errorf("Median(%v) = %v, want %v", tt.x, got, tt.want)
		}
	}
	if !math.IsNaN(Median(nil)) {
		t.Error("median of nothing is not NaN")
	}
}

func TestRoundSample(t *testing.T) {
	for _, tt := range []struct{ in, want float64 }{
		{2.1263457, 2.12635}, {0.000712345678, 0.000712346}, {1054.6912345, 1054.69}, {0, 0},
	} {
		if got := RoundSample(tt.in); got != tt.want {
			t.Errorf("RoundSample(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

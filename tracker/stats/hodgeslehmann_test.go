package stats

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestSelectorMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, tt := range []struct {
		name   string
		n, m   int
		levels int // 0: continuous; otherwise values drawn from this many levels
	}{{"1x1", 1, 1, 0}, {"1x40", 1, 40, 0}, {"40x1", 40, 1, 0}, {"7x9", 7, 9, 0},
		{"30x50", 30, 50, 0}, {"100x100", 100, 100, 0}, {"ties 25x30", 25, 30, 4}, {"ties 100x80", 100, 80, 7}} {
		t.Run(tt.name, func(t *testing.T) {
			draw := func(k int) []float64 {
				s := make([]float64, k)
				for i := range s {
					if tt.levels > 0 {
						s[i] = float64(rng.IntN(tt.levels))
					} else {
						s[i] = rng.NormFloat64()
					}
				}
				slices.Sort(s)
				return s
			}
			b, c := draw(tt.n), draw(tt.m)
			var all []float64
			for _, bi := range b {
				for _, cj := range c {
					all = append(all, cj-bi)
				}
			}
			slices.Sort(all)
			s := newSelector(b, c)
			for k := 1; k <= len(all); k += 1 + len(all)/97 {
				if got := s.kth(k); got != all[k-1] {
					t.Fatalf("kth(%d) = %v, want %v", k, got, all[k-1])
				}
			}
			for k := 1; k < len(all); k += 1 + len(all)/31 {
				if a, b := s.kthPair(k, true); a != all[k-1] || b != all[k] {
					t.Fatalf("kthPair(%d) = %v, %v, want %v, %v", k, a, b, all[k-1], all[k])
				}
			}
			if got := s.kth(len(all)); got != all[len(all)-1] {
				t.Errorf("kth(nm) = %v, want %v", got, all[len(all)-1])
			}
		})
	}
}

func TestHodgesLehmannRatioProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	lognormal := func(k int, med float64) []float64 {
		s := make([]float64, k)
		for i := range s {
			s[i] = med * math.Exp(0.05*rng.NormFloat64())
		}
		return s
	}
	for _, tt := range []struct{ n, m int }{{5, 8}, {30, 30}, {120, 90}} {
		base, cand := lognormal(tt.n, 10), lognormal(tt.m, 11)
		est, lo, hi, err := HodgesLehmannRatio(base, cand, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		if !(lo <= est && est <= hi) {
			t.Errorf("%dx%d: est %v outside [%v, %v]", tt.n, tt.m, est, lo, hi)
		}
		// Swapping the samples inverts every ratio.
		e2, l2, h2, _ := HodgesLehmannRatio(cand, base, 0.95)
		if relErr(e2, 1/est) > 1e-14 || relErr(l2, 1/hi) > 1e-14 || relErr(h2, 1/lo) > 1e-14 {
			t.Errorf("%dx%d: swapped (%v, %v, %v), want reciprocals of (%v, %v, %v)", tt.n, tt.m, e2, l2, h2, est, hi, lo)
		}
		// Scaling both samples leaves the ratio unchanged.
		for i := range base {
			base[i] *= 1000
		}
		for i := range cand {
			cand[i] *= 1000
		}
		e3, _, _, _ := HodgesLehmannRatio(base, cand, 0.95)
		if relErr(e3, est) > 1e-12 {
			t.Errorf("%dx%d: scaled est %v, want %v", tt.n, tt.m, e3, est)
		}
	}
}

// TestHodgesLehmannRatioCoverage checks that the interval covers the true
// ratio at least as often as promised, by simulation with a fixed seed.
func TestHodgesLehmannRatioCoverage(t *testing.T) {
	const trials, conf, ratio = 1000, 0.90, 1.07
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{8, 60} {
		covered := 0
		for range trials {
			base, cand := make([]float64, n), make([]float64, n)
			for i := range n {
				base[i] = 100 * math.Exp(0.1*rng.NormFloat64())
				cand[i] = ratio * 100 * math.Exp(0.1*rng.NormFloat64())
			}
			_, lo, hi, _ := HodgesLehmannRatio(base, cand, conf)
			if lo <= ratio && ratio <= hi {
				covered++
			}
		}
		rate := float64(covered) / trials
		t.Logf("n=m=%d: %.1f%% interval covered the true ratio in %.1f%% of %d trials", n, 100*conf, 100*rate, trials)
		if slack := 3 * math.Sqrt(conf*(1-conf)/trials); rate < conf-slack {
			t.Errorf("n=m=%d: coverage %.3f < %.3f", n, rate, conf-slack)
		}
	}
}

func TestHodgesLehmannRatioErrors(t *testing.T) {
	ok := []float64{1, 2, 3}
	for _, tt := range []struct {
		name       string
		base, cand []float64
		conf       float64
		want       error
	}{
		{"empty", nil, ok, 0.9, ErrEmptySample},
		{"zero", ok, []float64{1, 0}, 0.9, ErrNonPositive},
		{"negative", []float64{-1}, ok, 0.9, ErrNonPositive},
		{"NaN", ok, []float64{math.NaN()}, 0.9, ErrNonFinite},
		{"conf 1", ok, ok, 1, ErrConfidence},
		{"conf NaN", ok, ok, math.NaN(), ErrConfidence},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, _, err := HodgesLehmannRatio(tt.base, tt.cand, tt.conf); !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

// TestSelectorReuse checks that a selector reset for new samples, after
// larger and smaller ones, selects exactly what a new one does.
func TestSelectorReuse(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var reused selector
	for _, sz := range [][2]int{{100, 100}, {7, 9}, {120, 3}, {50, 50}, {1, 1}, {200, 150}} {
		b, c := make([]float64, sz[0]), make([]float64, sz[1])
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		for i := range c {
			c[i] = rng.NormFloat64()
		}
		slices.Sort(b)
		slices.Sort(c)
		reused.reset(b, c)
		fresh := newSelector(b, c)
		nm := len(b) * len(c)
		for _, k := range []int{1, nm / 4, (nm + 1) / 2, nm - nm/4, nm} {
			k = max(k, 1)
			if got, want := reused.kth(k), fresh.kth(k); got != want {
				t.Fatalf("%dx%d kth(%d): reused %v, new %v", len(b), len(c), k, got, want)
			}
		}
	}
}

// TestHodgesLehmannRatioDoesNotAllocate: compare calls it once per
// benchmark; its buffers are reused, and sorted samples are not copied.
func TestHodgesLehmannRatioDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("under -race sync.Pool drops buffers on purpose; .ci/run runs this package again without -race")
	}
	base, cand := benchSamples(100)
	slices.Sort(base)
	slices.Sort(cand)
	a := testing.AllocsPerRun(200, func() {
		if _, _, _, err := HodgesLehmannRatio(base, cand, 0.99); err != nil {
			t.Fatal(err)
		}
	})
	if a >= 1 { // a garbage collection may empty the pool once
		t.Errorf("HodgesLehmannRatio: %v allocations per call, want 0", a)
	}
}

package changepoint

import (
	"fmt"
	"sync"
	"testing"
)

// permutationSignificantSequential is the permutation test before it ran
// on helpers: the certifier then the scan, each permutation in order on
// one goroutine, with the same early stops. Every version since must
// decide as it does.
func permutationSignificantSequential(seg []float64, q float64, offset uint64, buf []float64) bool {
	limit := int(permutationAlpha * (permutations + 1))
	perm := make([]float64, len(seg))
	rank := ranks(seg)
	shown := make([]bool, permutations)
	count := 1
	c := newCertifier(len(seg))
	copy(perm, seg)
	rng := newPermutations(offset)
	for r := range permutations {
		rng.Shuffle(len(perm), func(i, j int) {
			perm[i], perm[j] = perm[j], perm[i]
			rank[i], rank[j] = rank[j], rank[i]
		})
		if !c.reaches(perm, rank, q) {
			continue
		}
		shown[r] = true
		if count++; count > limit {
			return false
		}
	}
	copy(perm, seg)
	rng = newPermutations(offset)
	for r := 0; r < permutations; r++ {
		if count+permutations-r <= limit {
			return true
		}
		rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		if shown[r] {
			continue
		}
		if reaches(perm, buf, q) {
			if count++; count > limit {
				return false
			}
		}
	}
	return true
}

// permutationCases are 200-point histories (above minParallel) whose
// tests go either way: flat ones, some significant by chance at their
// own Q; steps and excursions too small for the t-test; each tried at
// factors of its own Q where the count of permutations reaching it is
// near the limit.
func permutationCases() map[string][]float64 {
	cases := map[string][]float64{}
	for seed := range uint64(8) {
		cases[fmt.Sprint("flat ", seed)] = flatHistory(200, 0.03, 100+seed)
	}
	for k, by := range []float64{1.01, 1.02, 1.03} {
		s := uint64(200 + 10*k)
		cases[fmt.Sprint("step ×", by)] = cat(flatHistory(120, 0.03, s), scale(flatHistory(80, 0.03, s+1), by))
		cases[fmt.Sprint("excursion ×", by)] = cat(flatHistory(90, 0.03, s+2), scale(flatHistory(6, 0.03, s+3), by+0.05), flatHistory(104, 0.03, s+4))
	}
	return cases
}

// TestPermutationParallelMatchesSequential: on the calling goroutine
// alone and with 1, 3 and 8 helpers, the test decides as the sequential
// version for every case, factor and offset.
func TestPermutationParallelMatchesSequential(t *testing.T) {
	if testing.Short() {
		t.Skip("scans up to 199 permutations of 200 values, many times")
	}
	buf := make([]float64, 4*200+1)
	outcomes := map[bool]int{}
	for name, x := range permutationCases() {
		t.Run(name, func(t *testing.T) {
			_, q := bestSplit(x, buf)
			for _, f := range []float64{0.8, 0.95, 1, 1.05, 1.1} {
				off := uint64(len(name))
				want := permutationSignificantSequential(x, f*q, off, buf)
				outcomes[want]++
				for _, h := range []int{0, 1, 3, 8} {
					if got := permutationTest(x, f*q, off, buf, h); got != want {
						t.Errorf("Q×%v, %d helpers: significant = %v, in order %v", f, h, got, want)
					}
				}
			}
		})
	}
	t.Logf("%d significant, %d not", outcomes[true], outcomes[false])
	if outcomes[true] < 10 || outcomes[false] < 10 {
		t.Errorf("%d significant, %d not: the cases no longer test both answers", outcomes[true], outcomes[false])
	}
}

// TestPermutationNested: many tests at once, as the site build runs
// them (one analysis per CPU), decide as alone and give back every helper.
func TestPermutationNested(t *testing.T) {
	if testing.Short() {
		t.Skip("scans up to 199 permutations of 200 values, many times")
	}
	cases := permutationCases()
	var wg sync.WaitGroup
	for name, x := range cases {
		wg.Go(func() {
			buf := make([]float64, 4*len(x)+1)
			_, q := bestSplit(x, buf)
			if got, want := permutationSignificant(x, q, 1, buf), permutationSignificantSequential(x, q, 1, buf); got != want {
				t.Errorf("%s: significant = %v, alone and in order %v", name, got, want)
			}
		})
	}
	wg.Wait()
	if n := busyHelpers.Load(); n != 0 {
		t.Errorf("%d helpers still taken after every test returned", n)
	}
}

// BenchmarkPermutationSignificant1000 is the permutation test of a flat
// history of trend's 1,000 points moving ±4.5% that is significant by
// chance (8 of its 199 permutations reach its Q: p = 0.045): every permutation the certifier does not show must be
// scanned. "sequential" is the version before helpers.
//
//	go test ./tracker/changepoint -run '^$' -bench PermutationSignificant1000
func BenchmarkPermutationSignificant1000(b *testing.B) {
	x := flatHistory(1000, 0.03, 108)
	buf := make([]float64, 4*len(x)+1)
	_, q := bestSplit(x, buf)
	for _, c := range []struct {
		name string
		f    func([]float64, float64, uint64, []float64) bool
	}{{"parallel", permutationSignificant}, {"sequential", permutationSignificantSequential}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if !c.f(x, q, 0, buf) {
					b.Fatal("not significant")
				}
			}
		})
	}
}

package changepoint

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// bestSplitTable is bestSplit as first written: the full (n+1)×n table of
// column sums and Q evaluated at every split. The scan must agree with it
// to the last bit.
func bestSplitTable(x []float64) (int, float64) {
	n := len(x)
	col := make([]float64, (n+1)*n) // col[i*n+k] = Σ_{j<i} |x[j] − x[k]|, i ≤ k
	for k := range n {
		for i := 1; i <= k; i++ {
			col[i*n+k] = col[(i-1)*n+k] + math.Abs(x[i-1]-x[k])
		}
	}
	best, bestQ := 1, math.Inf(-1)
	var withinX float64
	for tau := 1; tau < n; tau++ {
		withinX += col[(tau-1)*n+tau-1]
		var between, withinY float64
		for p := tau; p < n; p++ {
			between += col[tau*n+p]
			withinY += col[p*n+p] - col[tau*n+p]
			a, b := float64(tau), float64(p+1-tau)
			q := 2*between/(a+b) - a*b/(a+b)*(pairMean(withinX, a)+pairMean(withinY, b))
			if q > bestQ {
				best, bestQ = tau, q
			}
		}
	}
	return best, bestQ
}

// permutationSignificantTable is the permutation test as first written:
// every permutation's largest Q from the full table.
func permutationSignificantTable(seg []float64, q float64, offset uint64, _ []float64) bool {
	limit := int(permutationAlpha * (permutations + 1))
	rng := rand.New(rand.NewPCG(0x5eed_c4a9, offset))
	perm := append([]float64(nil), seg...)
	count := 1
	for range permutations {
		rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		if _, pq := bestSplitTable(perm); pq >= q {
			if count++; count > limit {
				return false
			}
		}
	}
	return true
}

// splitCases are series of the shapes Detect meets: flat noise, steps,
// excursions, ties, a constant, and the fixtures of TestDetect.
func splitCases() map[string][]float64 {
	rng := rand.New(rand.NewPCG(41, 42))
	noise := func(n int, sd float64) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = 100 * math.Exp(sd*rng.NormFloat64())
		}
		return x
	}
	cases := map[string][]float64{
		"three":      {1, 2, 3},
		"constant":   {5, 5, 5, 5, 5, 5, 5},
		"ties":       {1, 2, 1, 2, 2, 1, 3, 1, 2, 2, 1, 1, 3, 2},
		"flat 1%":    noise(200, 0.01),
		"flat 10%":   noise(150, 0.1),
		"step":       cat(noise(60, 0.01), scale(noise(60, 0.01), 1.05)),
		"excursion":  cat(noise(50, 0.01), scale(noise(8, 0.01), 1.1), noise(50, 0.01)),
		"small step": cat(noise(40, 0.02), scale(noise(40, 0.02), 1.01)),
		"huge range": {1e-300, 1e300, 3, 1e-300, 1e300, 7, 1e150},
	}
	for i, c := range []struct{ x []float64 }{{cat(noisy, scale(noisy, 1.2))}, {cat(noisy, scale(noisy[:3], 1.3), noisy)},
		{cat(noisy[:7], scale(noisy[:5], 1.15))}, {drift(20, 1.002)}, {cat(noisy, []float64{300}, noisy)}} {
		cases[fmt.Sprint("fixture ", i)] = c.x
	}
	return cases
}

func TestBestSplitMatchesTable(t *testing.T) {
	for name, x := range splitCases() {
		t.Run(name, func(t *testing.T) {
			wantTau, wantQ := bestSplitTable(x)
			gotTau, gotQ := bestSplit(x, nil)
			if gotTau != wantTau || math.Float64bits(gotQ) != math.Float64bits(wantQ) {
				t.Errorf("bestSplit = %d, %v; the table gives %d, %v", gotTau, gotQ, wantTau, wantQ)
			}
			// reaches agrees with the table's largest Q at, just below and
			// just above it.
			for _, q := range []float64{wantQ, math.Nextafter(wantQ, math.Inf(-1)), math.Nextafter(wantQ, math.Inf(1)), wantQ / 2, 0} {
				if got, want := reaches(x, nil, q), wantQ >= q; got != want {
					t.Errorf("reaches(%v) = %v, want %v (largest Q %v)", q, got, want, wantQ)
				}
			}
		})
	}
}

// TestPermutationMatchesTable: the permutation test decides exactly as the
// table version did, for the segment's own Q and for thresholds around the
// permutations' typical Q (where the early stops matter).
func TestPermutationMatchesTable(t *testing.T) {
	buf := make([]float64, 0, 1024)
	for name, x := range splitCases() {
		if len(x) > 80 {
			x = x[:80] // 199 table permutations of 200 values is slow
		}
		t.Run(name, func(t *testing.T) {
			_, q := bestSplitTable(x)
			for _, f := range []float64{1, 0.9, 0.7, 0.5, 1.2} {
				for _, off := range []uint64{0, 7} {
					if got, want := permutationSignificant(x, f*q, off, buf), permutationSignificantTable(x, f*q, off, nil); got != want {
						t.Errorf("Q×%v offset %d: significant = %v, the table says %v", f, off, got, want)
					}
				}
			}
		})
	}
}

// TestDetectMatchesTable runs detection with the scan and with the versions
// first written on series with steps, excursions and none, and wants the
// same change points, medians and p-values.
func TestDetectMatchesTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	for i := range 40 {
		n := 20 + rng.IntN(100)
		x := make([]float64, n)
		level := 100.0
		for j := range x {
			if rng.IntN(25) == 0 {
				level *= 1 + 0.2*(rng.Float64()-0.5) // a step, or part of an excursion
			}
			x[j] = level * math.Exp(0.02*rng.NormFloat64())
		}
		got := Detect(x, DefaultOptions())
		want := detect(x, DefaultOptions(), func(x, _ []float64) (int, float64) { return bestSplitTable(x) }, permutationSignificantTable)
		if !slices.Equal(got, want) {
			t.Errorf("series %d (%d runs): Detect = %v, the table versions give %v", i, n, got, want)
		}
	}
}

// BenchmarkBestSplit1000 is one split of the longest history trend reads
// (trend.MaxPoints); "table" is the version first written.
//
//	go test ./tracker/changepoint -run '^$' -bench BestSplit
func BenchmarkBestSplit1000(b *testing.B) {
	rng := rand.New(rand.NewPCG(51, 52))
	x := make([]float64, 1000)
	for i := range x {
		x[i] = 100 * math.Exp(0.01*rng.NormFloat64())
	}
	buf := make([]float64, 4*len(x)+1)
	b.Run("scan", func(b *testing.B) {
		for b.Loop() {
			bestSplit(x, buf)
		}
	})
	b.Run("table", func(b *testing.B) {
		for b.Loop() {
			bestSplitTable(x)
		}
	})
}

// TestDetectMemoryLinear: detection's memory is linear in the history (the
// first version held an (n+1)×n table per split: 8 MB at trend's 1,000
// points, 16 times more for 4 times the points). The bytes allocated by
// Detect on a flat history of 4n points must stay within 5 times those of
// n points. Both sizes are long enough for the permutation test's helpers
// (minParallel), each with O(n) buffers of its own.
func TestDetectMemoryLinear(t *testing.T) {
	allocated := func(n int) uint64 {
		rng := rand.New(rand.NewPCG(71, 72))
		x := make([]float64, n)
		for i := range x {
			x[i] = 100 * math.Exp(0.01*rng.NormFloat64())
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		Detect(x, DefaultOptions())
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	const n = 2 * minParallel
	small, large := allocated(n), allocated(4*n)
	t.Logf("Detect allocates %d bytes at %d points, %d at %d", small, n, large, 4*n)
	if large > 5*small {
		t.Errorf("Detect allocates %d bytes at %d points, %.1f times %d at %d: want linear (≤ 5×)", large, 4*n, float64(large)/float64(small), small, n)
	}
}

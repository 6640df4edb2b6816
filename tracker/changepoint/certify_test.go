package changepoint

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/perfgate/perfgate/internal/scaletest"
)

// permutationSignificantScan is the permutation test before the
// certifier: every permutation scanned in order, with the same early
// stops. TestPermutationMatchesTable pins it to the table version.
func permutationSignificantScan(seg []float64, q float64, offset uint64, buf []float64) bool {
	limit := int(permutationAlpha * (permutations + 1))
	rng := newPermutations(offset)
	perm := append([]float64(nil), seg...)
	count := 1
	for r := 0; r < permutations; r++ {
		if count+permutations-r <= limit {
			return true
		}
		rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		if reaches(perm, buf, q) {
			if count++; count > limit {
				return false
			}
		}
	}
	return true
}

// flatHistory is n run medians moving by up to ±1.5·noise around 1000,
// as docs/speed/trend-10k.sh draws them.
func flatHistory(n int, noise float64, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 7))
	x := make([]float64, n)
	for i := range x {
		x[i] = 1000 * (1 + noise*(rng.Float64()+rng.Float64()+rng.Float64()-1.5))
	}
	return x
}

// TestCertifierSound: whenever the certifier shows that a permutation
// reaches q, the table's exact Q of some split is ≥ q — also for q just
// above the permutation's largest Q, where it must not claim anything.
func TestCertifierSound(t *testing.T) {
	cases := splitCases()
	cases["flat ±4.5%"] = flatHistory(300, 0.03, 1)
	cases["excursion of 3"] = cat(flatHistory(100, 0.01, 2), scale(flatHistory(3, 0.01, 3), 1.1), flatHistory(100, 0.01, 4))
	for name, x := range cases {
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(81, 82))
			perm, rank := append([]float64(nil), x...), ranks(x)
			c := newCertifier(len(x))
			shown := 0
			for range 5 {
				rng.Shuffle(len(perm), func(i, j int) {
					perm[i], perm[j] = perm[j], perm[i]
					rank[i], rank[j] = rank[j], rank[i]
				})
				_, maxQ := bestSplitTable(perm)
				for _, q := range []float64{maxQ * 0.5, maxQ * 0.9, maxQ * 0.999, maxQ, math.Nextafter(maxQ, math.Inf(1)), maxQ * 1.001} {
					if !c.reaches(perm, rank, q) {
						continue
					}
					shown++
					if !(maxQ >= q) {
						t.Fatalf("certifier shows Q ≥ %v, but the largest Q is %v", q, maxQ)
					}
				}
			}
			t.Logf("%d shown", shown)
		})
	}
}

// TestPermutationMatchesScan: on flat histories of trend's 1,000 points
// (most permutations reach q: the certifier settles them) and histories
// with an excursion or a step (few do: the scan settles them), the test
// decides as the scan alone did.
func TestPermutationMatchesScan(t *testing.T) {
	if testing.Short() {
		t.Skip("scans up to 199 permutations of 1,000 values")
	}
	buf := make([]float64, 4*1000+1)
	for _, c := range []struct {
		name    string
		x       []float64
		factors []float64 // of the series' own Q: where the early stops matter
	}{
		{"flat ±4.5%", flatHistory(1000, 0.03, 1), []float64{1, 0.8, 1.1}},
		{"flat ±6.75%", flatHistory(1000, 0.045, 3), []float64{1, 0.8, 1.1}},
		// Significant by chance (p = 0.045): all but a few permutations
		// are scanned, on helpers where GOMAXPROCS > 1.
		{"flat ±4.5%, significant", flatHistory(1000, 0.03, 108), []float64{1}},
		// Shorter: nearly every permutation is scanned where the test is
		// significant (at Q×2 one permutation is shown to reach it first).
		{"flat ±4.5%, 300", flatHistory(300, 0.03, 4), []float64{1.5, 2, 3}},
		{"excursion", cat(flatHistory(200, 0.03, 5), scale(flatHistory(5, 0.03, 6), 1.08), flatHistory(195, 0.03, 7)), []float64{1}},
		{"step of 2%", cat(flatHistory(200, 0.03, 8), scale(flatHistory(200, 0.03, 9), 1.02)), []float64{1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, q := bestSplit(c.x, buf)
			for _, f := range c.factors {
				got, want := permutationSignificant(c.x, f*q, 3, buf), permutationSignificantScan(c.x, f*q, 3, buf)
				if got != want {
					t.Errorf("Q×%v: significant = %v, the scan says %v", f, got, want)
				}
				t.Logf("Q×%v: significant = %v", f, got)
			}
		})
	}
}

// BenchmarkPermutation1000 is the permutation test of a flat history of
// trend's 1,000 points moving ±4.5%, the slowest part of `perfgate
// trend` before the certifier; "scan" is the test without it.
//
//	go test ./tracker/changepoint -run '^$' -bench Permutation1000
func BenchmarkPermutation1000(b *testing.B) {
	x := flatHistory(1000, 0.03, 3)
	buf := make([]float64, 4*len(x)+1)
	_, q := bestSplit(x, buf)
	for _, c := range []struct {
		name string
		f    func([]float64, float64, uint64, []float64) bool
	}{{"certify", permutationSignificant}, {"scan", permutationSignificantScan}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				c.f(x, q, 0, buf)
			}
		})
	}
}

// TestCertifierLinear: a certifier's try is O(n log n + n·shortWindow),
// the cost it adds to a permutation test of n values per permutation (the
// scan it saves is O(n²)). A try that shows nothing does all of its work.
func TestCertifierLinear(t *testing.T) {
	scaletest.Linear(t, scaletest.Case{N: 2000, Setup: func(n int) func() {
		x := flatHistory(n, 0.03, 11)
		rank, c := ranks(x), newCertifier(n)
		return func() {
			if c.reaches(x, rank, math.Inf(1)) {
				t.Fatal("certifier shows a Q of +Inf")
			}
		}
	}})
}

package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// benchSamples returns two lognormal samples of n values, 1% apart.
func benchSamples(n int) (base, cand []float64) {
	rng := rand.New(rand.NewPCG(11, 12))
	base, cand = make([]float64, n), make([]float64, n)
	for i := range n {
		base[i] = 1000 * math.Exp(0.03*rng.NormFloat64())
		cand[i] = 1010 * math.Exp(0.03*rng.NormFloat64())
	}
	return base, cand
}

// BenchmarkMannWhitneyAndHL100x100 is the per-benchmark statistics cost of
// a compare with 100 samples per side: one test and one ratio interval.
func BenchmarkMannWhitneyAndHL100x100(b *testing.B) {
	base, cand := benchSamples(100)
	for b.Loop() {
		if _, err := MannWhitney(cand, base, Greater); err != nil {
			b.Fatal(err)
		}
		if _, _, _, err := HodgesLehmannRatio(base, cand, 0.99); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMannWhitneyAndHL100x100Sorted is the same with samples the
// caller already sorted, which skips the sorts.
func BenchmarkMannWhitneyAndHL100x100Sorted(b *testing.B) {
	base, cand := benchSamples(100)
	slices.Sort(base)
	slices.Sort(cand)
	for b.Loop() {
		MannWhitney(cand, base, Greater)
		HodgesLehmannRatio(base, cand, 0.99)
	}
}

func BenchmarkMannWhitney(b *testing.B) {
	for _, n := range []int{10, 50, 100} {
		base, cand := benchSamples(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				MannWhitney(cand, base, Greater)
			}
		})
	}
	base, cand := benchSamples(25)
	for i := range base {
		base[i], cand[i] = math.Round(base[i]/10), math.Round(cand[i]/10)
	}
	b.Run("ties25", func(b *testing.B) {
		for b.Loop() {
			MannWhitney(cand, base, Greater)
		}
	})
}

func BenchmarkHodgesLehmannRatio(b *testing.B) {
	for _, n := range []int{10, 50, 100, 1000} {
		base, cand := benchSamples(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				HodgesLehmannRatio(base, cand, 0.99)
			}
		})
	}
}

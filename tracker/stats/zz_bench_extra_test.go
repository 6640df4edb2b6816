package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

func benchData() ([]float64, []float64) {
	rng := rand.New(rand.NewPCG(11, 12))
	base, cand := make([]float64, 100), make([]float64, 100)
	for i := range 100 {
		base[i] = 1000 * math.Exp(0.03*rng.NormFloat64())
		cand[i] = 1010 * math.Exp(0.03*rng.NormFloat64())
	}
	return base, cand
}
func BenchmarkMW(b *testing.B) {
	base, cand := benchData()
	for b.Loop() {
		MannWhitney(cand, base, Greater)
	}
}
func BenchmarkHL(b *testing.B) {
	base, cand := benchData()
	for b.Loop() {
		HodgesLehmannRatio(base, cand, 0.99)
	}
}

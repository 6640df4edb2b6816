package trend

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

// benchSeries is a history of n run medians with 1% noise; step, when
// not 1, multiplies the level of the second half.
func benchSeries(n int, step float64) model.TrendSeries {
	rng := rand.New(rand.NewPCG(31, 32))
	x := make([]float64, n)
	for i := range x {
		x[i] = 100 * math.Exp(0.01*rng.NormFloat64())
		if i >= n/2 {
			x[i] *= step
		}
	}
	return seriesOf(model.Key{Suite: "s", Name: "b"}, model.Lower, x)
}

// BenchmarkAnalyze10k is the analysis `perfgate trend` makes of one
// benchmark's 10,000 runs (step detection reads the latest MaxPoints).
// Goal: the whole trend process ≤ 50 ms.
//
//	go test ./tracker/trend -run '^$' -bench Analyze10k
func BenchmarkAnalyze10k(b *testing.B) {
	for _, c := range []struct {
		name string
		step float64
	}{{"flat", 1}, {"step", 1.2}} {
		se := []model.TrendSeries{benchSeries(10000, c.step)}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Analyze(se, DefaultOptions())
			}
		})
	}
}

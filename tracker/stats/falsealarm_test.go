package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestFalseAlarmRate simulates A/A comparisons, both samples drawn from one
// distribution, and checks that p < α happens at most α of the time, up to
// three binomial standard errors of simulation noise.
func TestFalseAlarmRate(t *testing.T) {
	const trials = 2000
	tests := []struct {
		name   string
		n, m   int
		draw   func(*rand.Rand) float64
		method string
	}{
		{"exact 10x10 lognormal", 10, 10, func(r *rand.Rand) float64 { return 100 * math.Exp(0.05*r.NormFloat64()) }, MethodExact},
		{"exact 5x8 lognormal", 5, 8, func(r *rand.Rand) float64 { return 100 * math.Exp(0.05*r.NormFloat64()) }, MethodExact},
		{"exact-ties 12x12 quantised", 12, 12, func(r *rand.Rand) float64 { return math.Round(100 + 2*r.NormFloat64()) }, MethodExactTies},
		{"normal 60x60 lognormal", 60, 60, func(r *rand.Rand) float64 { return 100 * math.Exp(0.05*r.NormFloat64()) }, MethodNormal},
		{"normal 40x40 quantised", 40, 40, func(r *rand.Rand) float64 { return math.Round(100 + 2*r.NormFloat64()) }, MethodNormal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(2026, 11))
			alphas := []float64{0.05, 0.01}
			alts := []Alternative{Greater, TwoSided}
			alarms := [][]int{make([]int, 2), make([]int, 2)}
			x, y := make([]float64, tt.n), make([]float64, tt.m)
			for range trials {
				for i := range x {
					x[i] = tt.draw(rng)
				}
				for i := range y {
					y[i] = tt.draw(rng)
				}
				for j, alt := range alts {
					counts := alarms[j]
					res, err := MannWhitney(x, y, alt)
					if err != nil {
						t.Fatal(err)
					}
					if res.Method != tt.method && res.Method != MethodExact {
						t.Fatalf("Method = %s, want %s", res.Method, tt.method)
					}
					for i, a := range alphas {
						if res.P < a {
							counts[i]++
						}
					}
				}
			}
			for j, alt := range alts {
				for i, a := range alphas {
					counts := alarms[j]
					rate := float64(counts[i]) / trials
					t.Logf("%v α=%.2f: false alarms %d/%d = %.4f", alt, a, counts[i], trials, rate)
					if slack := 3 * math.Sqrt(a*(1-a)/trials); rate > a+slack {
						t.Errorf("%v α=%.2f: false-alarm rate %.4f > %.4f", alt, a, rate, a+slack)
					}
				}
			}
		})
	}
}

// TestExactSize checks the false-alarm probability of the exact test
// without simulation: the null probability of every U whose p-value is
// below α adds up to at most α.
func TestExactSize(t *testing.T) {
	for _, tt := range []struct{ n, m int }{{5, 8}, {10, 10}, {30, 50}} {
		d := exactDist(tt.n, tt.m)
		for _, a := range []float64{0.05, 0.01, 1e-6} {
			size := 0.0
			for u := 0; u <= tt.n*tt.m; u++ {
				if d.ge(float64(u)) < a {
					size += d.le(float64(u)) - d.le(float64(u)-1)
				}
			}
			t.Logf("%dx%d α=%g: exact one-sided size %.4g", tt.n, tt.m, a, size)
			if size > a {
				t.Errorf("%dx%d α=%g: size %v > α", tt.n, tt.m, a, size)
			}
		}
	}
}

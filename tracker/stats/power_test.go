package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestRequiredN(t *testing.T) {
	tests := []struct {
		name                     string
		effect, cv, alpha, power float64
		want                     int
	}{
		// scipy: z = norm.isf(alpha) + norm.ppf(power); P = norm.cdf(effect/cv/sqrt(2));
		// z*z / (6*(P-0.5)**2) = 15.21 and 174.97.
		{"cv equals effect", 0.10, 0.10, 0.05, 0.8, 16},
		{"small effect", 0.02, 0.05, 0.01, 0.9, 175},
		// No noise: the exact test still needs C(2n, n) ≥ 1/α: C(6,3)=20, C(10,5)=252.
		{"no noise α=0.05", 0.1, 0, 0.05, 0.8, 3},
		{"no noise α=0.01", 0.1, 0, 0.01, 0.8, 5},
		{"no effect", 0, 0.1, 0.05, 0.8, 0},
		{"bad alpha", 0.1, 0.1, 1, 0.8, 0},
		{"bad power", 0.1, 0.1, 0.05, 0, 0},
		{"NaN", math.NaN(), 0.1, 0.05, 0.8, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RequiredN(tt.effect, tt.cv, tt.alpha, tt.power); got != tt.want {
				t.Errorf("RequiredN(%v, %v, %v, %v) = %d, want %d", tt.effect, tt.cv, tt.alpha, tt.power, got, tt.want)
			}
		})
	}
}

// TestRequiredNPower checks by simulation that RequiredN samples per side
// give about the requested power on normal data.
func TestRequiredNPower(t *testing.T) {
	const trials, alpha, power = 1000, 0.05, 0.8
	rng := rand.New(rand.NewPCG(13, 14))
	for _, tt := range []struct{ effect, cv float64 }{{0.10, 0.10}, {0.05, 0.10}, {0.20, 0.10}} {
		n := RequiredN(tt.effect, tt.cv, alpha, power)
		x, y := make([]float64, n), make([]float64, n)
		hits := 0
		for range trials {
			for i := range n {
				x[i] = 1 + tt.effect + tt.cv*rng.NormFloat64()
				y[i] = 1 + tt.cv*rng.NormFloat64()
			}
			if res, _ := MannWhitney(x, y, Greater); res.P < alpha {
				hits++
			}
		}
		got := float64(hits) / trials
		t.Logf("effect %.2f cv %.2f: n=%d per side, simulated power %.3f (asked %.2f)", tt.effect, tt.cv, n, got, power)
		if got < power-0.05 || got > power+0.15 {
			t.Errorf("effect %.2f cv %.2f: simulated power %.3f, want about %.2f", tt.effect, tt.cv, got, power)
		}
	}
}

package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestDescribe(t *testing.T) {
	tests := []struct {
		name string
		x    []float64
		want Summary
	}{
		{"empty", nil, Summary{}},
		{"one", []float64{4}, Summary{N: 1, Median: 4, Mean: 4, Min: 4, Max: 4, P95: 4, P99: 4}},
		// numpy: np.std([1,2,3,4,10], ddof=1) = 3.5355339059327378;
		// np.percentile(x, [95, 99]) = [8.8, 9.76]; median_abs_deviation = 1.
		{"five", []float64{10, 1, 3, 2, 4}, Summary{N: 5, Median: 3, Mean: 4, Std: 3.5355339059327378,
			CV: 3.5355339059327378 / 4, Min: 1, Max: 10, P95: 8.8, P99: 9.76, MAD: 1}},
		{"zero mean", []float64{-1, 1}, Summary{N: 2, Median: 0, Mean: 0, Std: math.Sqrt2, CV: 0,
			Min: -1, Max: 1, P95: 0.8999999999999999, P99: 0.98, MAD: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Describe(tt.x)
			if got.N != tt.want.N {
				t.Fatalf("N = %d, want %d", got.N, tt.want.N)
			}
			for _, f := range []struct {
				name      string
				got, want float64
			}{{"Median", got.Median, tt.want.Median}, {"Mean", got.Mean, tt.want.Mean}, {"Std", got.Std, tt.want.Std},
				{"CV", got.CV, tt.want.CV}, {"Min", got.Min, tt.want.Min}, {"Max", got.Max, tt.want.Max},
				{"P95", got.P95, tt.want.P95}, {"P99", got.P99, tt.want.P99}, {"MAD", got.MAD, tt.want.MAD}} {
				if math.Abs(f.got-f.want) > 1e-14*math.Max(1, math.Abs(f.want)) {
					t.Errorf("%s = %.17g, want %.17g", f.name, f.got, f.want)
				}
			}
		})
	}
}

func TestAdjustProperties(t *testing.T) {
	p := []float64{0.04, 1e-7, 0.5, 0.01, 0.011, 0.9, 3e-6}
	for _, adj := range []struct {
		name string
		f    func([]float64) []float64
	}{{"BH", AdjustBH}, {"Holm", AdjustHolm}} {
		t.Run(adj.name, func(t *testing.T) {
			q := adj.f(p)
			for i := range p {
				if q[i] < p[i] || q[i] > 1 {
					t.Errorf("adjusted[%d] = %v, want in [p=%v, 1]", i, q[i], p[i])
				}
				for j := range p {
					if p[i] < p[j] && q[i] > q[j] {
						t.Errorf("order broken: p[%d]=%v < p[%d]=%v but %v > %v", i, p[i], j, p[j], q[i], q[j])
					}
				}
			}
			if got := adj.f(nil); len(got) != 0 {
				t.Errorf("adjust(nil) = %v", got)
			}
		})
	}
}

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

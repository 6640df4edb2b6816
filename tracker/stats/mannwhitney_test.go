package stats

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestMannWhitneyPinned(t *testing.T) {
	sep50x, sep50y := make([]float64, 50), make([]float64, 50)
	for i := range 50 {
		sep50x[i], sep50y[i] = float64(1000+i), float64(i)
	}
	tied := [][]float64{{1, 2, 2, 3, 3, 3}, {2, 3, 3, 4, 4, 5, 5}}
	tests := []struct {
		name   string
		x, y   []float64
		alt    Alternative
		u, p   float64
		method string
		cmd    string
	}{
		{"separated 3x4", []float64{5, 6, 7}, []float64{1, 2, 3, 4}, Greater, 12, 1.0 / 35, MethodExact,
			"1/C(7, 3)"},
		{"separated 50x50", sep50x, sep50y, Greater, 2500, 9.911653021418343e-30, MethodExact,
			"scipy.stats.mannwhitneyu(range(1000, 1050), range(50), alternative='greater', method='exact')"},
		{"separated 50x50 less", sep50x, sep50y, Less, 2500, 1, MethodExact, "P(U ≤ nm) = 1"},
		{"ties 6x7 less", tied[0], tied[1], Less, 7, 0.02913752913752914, MethodExactTies,
			"R: pvalue(wilcox_test(v ~ g, data.frame(v=c(1,2,2,3,3,3,2,3,3,4,4,5,5), g=factor(rep(c('x','y'), c(6,7)))), distribution='exact', alternative='less'))"},
		{"all equal", []float64{3, 3, 3}, []float64{3, 3}, TwoSided, 3, 1, MethodExactTies, "one tie group: U is 3 always"},
		{"all equal normal", make([]float64, 30), make([]float64, 30), Greater, 450, 1, MethodNormal, "zero variance"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := MannWhitney(tt.x, tt.y, tt.alt)
			if err != nil {
				t.Fatal(err)
			}
			if res.U != tt.u || res.Method != tt.method || relErr(res.P, tt.p) > 1e-13 {
				t.Errorf("MannWhitney = %+v, want U=%v P=%.17g Method=%s (%s)", res, tt.u, tt.p, tt.method, tt.cmd)
			}
		})
	}
	// R: wilcox.test(c(1,2,2,3,3,3), c(2,3,3,4,4,5,5), alternative="less", exact=FALSE, correct=TRUE)$p.value
	r := rankSamples(tied[0], tied[1], false)
	if p := normalP(6, 7, 7, r.tieTerm, Less); relErr(p, 0.022676095716404471) > 1e-13 {
		t.Errorf("normalP = %.17g, want 0.022676095716404471", p)
	}
}

// bruteForceP enumerates every way to choose which n of the pooled values
// form x and returns the exact lower and upper tail of U at the observed U.
func bruteForceP(x, y []float64) (lower, upper float64) {
	pool := append(append([]float64{}, x...), y...)
	n := len(x)
	u2 := func(pick []bool) int {
		h := 0
		for i, a := range pool {
			for j, b := range pool {
				if pick[i] && !pick[j] {
					switch {
					case a > b:
						h += 2
					case a == b:
						h++
					}
				}
			}
		}
		return h
	}
	pick := make([]bool, len(pool))
	for i := range n {
		pick[i] = true
	}
	obs := u2(pick)
	var lo, hi, total int
	var walk func(i, left int)
	walk = func(i, left int) {
		if left == 0 {
			h := u2(pick)
			total++
			if h <= obs {
				lo++
			}
			if h >= obs {
				hi++
			}
			return
		}
		if len(pool)-i < left {
			return
		}
		pick[i] = true
		walk(i+1, left-1)
		pick[i] = false
		walk(i+1, left)
	}
	clear(pick)
	walk(0, n)
	return float64(lo) / float64(total), float64(hi) / float64(total)
}

func TestMannWhitneyBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	draw := func(k, levels int) []float64 {
		s := make([]float64, k)
		for i := range s {
			s[i] = float64(rng.IntN(levels))
		}
		return s
	}
	tests := []struct {
		name string
		x, y []float64
	}{
		{"no ties 4x5", []float64{1.5, 8, 3, 9}, []float64{2, 4, 5, 7, 6}},
		{"ties across 3x4", []float64{1, 2, 2}, []float64{2, 3, 3, 4}},
		{"ties within x 3x3", []float64{5, 5, 1}, []float64{2, 3, 4}},
		{"one sided 1x6", []float64{3}, []float64{1, 3, 3, 5, 6, 7}},
	}
	for i := range 12 {
		tests = append(tests, struct {
			name string
			x, y []float64
		}{"random", draw(4+i%5, 2+i%6), draw(9-i%4, 2+i%6)})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lower, upper := bruteForceP(tt.x, tt.y)
			want := map[Alternative]float64{Less: lower, Greater: upper, TwoSided: min(1, 2*min(lower, upper))}
			for alt, w := range want {
				res, err := MannWhitney(tt.x, tt.y, alt)
				if err != nil {
					t.Fatal(err)
				}
				if relErr(res.P, w) > 1e-12 {
					t.Errorf("x=%v y=%v %v: P = %.17g (%s), brute force %.17g", tt.x, tt.y, alt, res.P, res.Method, w)
				}
			}
		})
	}
}

func TestMannWhitneyProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	sample := func(k int, round bool) []float64 {
		s := make([]float64, k)
		for i := range s {
			s[i] = 100 + 5*rng.NormFloat64()
			if round {
				s[i] = math.Round(s[i])
			}
		}
		return s
	}
	for _, tt := range []struct {
		name  string
		n, m  int
		round bool
	}{{"exact", 12, 9, false}, {"exact-ties", 15, 20, true}, {"normal", 70, 40, false}, {"normal-ties", 30, 30, true}} {
		t.Run(tt.name, func(t *testing.T) {
			x, y := sample(tt.n, tt.round), sample(tt.m, tt.round)
			for _, alt := range []Alternative{TwoSided, Less, Greater} {
				a, _ := MannWhitney(x, y, alt)
				b, _ := MannWhitney(y, x, alt)
				if a.U+b.U != float64(tt.n*tt.m) {
					t.Errorf("U1+U2 = %v+%v, want n·m = %d", a.U, b.U, tt.n*tt.m)
				}
				mirror := map[Alternative]Alternative{TwoSided: TwoSided, Less: Greater, Greater: Less}[alt]
				if c, _ := MannWhitney(y, x, mirror); relErr(c.P, a.P) > 1e-12 {
					t.Errorf("%v: P(x, y) = %v but mirrored P(y, x) = %v", alt, a.P, c.P)
				}
				// Scale by c > 0 and shift: exact in float64 for c = 4.
				xs, ys := make([]float64, len(x)), make([]float64, len(y))
				for i, v := range x {
					xs[i] = 4*v - 1000
				}
				for i, v := range y {
					ys[i] = 4*v - 1000
				}
				if s, _ := MannWhitney(xs, ys, alt); s != a {
					t.Errorf("%v: scaled and shifted %+v, want %+v", alt, s, a)
				}
			}
		})
	}
}

func TestExactDistribution(t *testing.T) {
	for _, tt := range []struct{ n, m int }{{1, 1}, {1, 7}, {5, 3}, {10, 10}, {25, 40}, {50, 50}} {
		d := exactDist(tt.n, tt.m)
		if want := math.Exp(lchoose(tt.n+tt.m, tt.n)); relErr(d.total(), want) > 1e-12 {
			t.Errorf("(%d,%d): total %v, want C(n+m, n) = %v", tt.n, tt.m, d.total(), want)
		}
		if p := d.le(float64(tt.n * tt.m)); p != 1 {
			t.Errorf("(%d,%d): P(U ≤ nm) = %v, want 1", tt.n, tt.m, p)
		}
		if p, want := d.ge(float64(tt.n*tt.m)), 1/d.total(); relErr(p, want) > 1e-15 {
			t.Errorf("(%d,%d): P(U = nm) = %v, want 1/C(n+m, n) = %v", tt.n, tt.m, p, want)
		}
	}
	// The tie-aware DP sums to C(N, n) whatever the groups.
	for _, groups := range [][]int{{1, 1, 1, 1}, {3, 1, 4, 1, 5}, {20}, {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}} {
		N := 0
		for _, g := range groups {
			N += g
		}
		n := N / 2
		if p := tieLE(n, groups, 2*n*(N-n)); relErr(p, 1) > 1e-15 {
			t.Errorf("groups %v: P(U ≤ nm) = %v, want 1", groups, p)
		}
	}
}

func TestMannWhitneyErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		x, y []float64
		want error
	}{
		{"empty x", nil, []float64{1}, ErrEmptySample},
		{"empty y", []float64{1}, []float64{}, ErrEmptySample},
		{"NaN", []float64{1, math.NaN()}, []float64{1}, ErrNonFinite},
		{"Inf", []float64{1}, []float64{math.Inf(-1)}, ErrNonFinite},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := MannWhitney(tt.x, tt.y, TwoSided); !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

// TestConcurrent exercises the shared caches from many goroutines; run it
// with -race.
func TestConcurrent(t *testing.T) {
	done := make(chan [2]float64)
	for g := range 8 {
		go func() {
			var out [2]float64
			for i := range 20 {
				n := 3 + (g+i)%7
				x, y := make([]float64, n), make([]float64, n+1)
				for j := range x {
					x[j] = float64(j) + 0.5
				}
				for j := range y {
					y[j] = float64(j%4) + 1
				}
				r1, _ := MannWhitney(x, y, Greater)
				r2, _ := MannWhitney(x, []float64{0.1, 0.2, 0.3}, Less)
				_, lo, _, err := HodgesLehmannRatio(append(x, 1), append(y, 1), 0.95)
				if err != nil {
					t.Error(err)
				}
				out[0] += r1.P + r2.P
				out[1] += lo
			}
			done <- out
		}()
	}
	for range 8 {
		<-done
	}
}

// TestMannWhitneyTailsAgree checks that MannWhitneyTails gives, in one call,
// exactly what MannWhitney gives for each alternative, for every method.
func TestMannWhitneyTailsAgree(t *testing.T) {
	for _, tc := range []struct {
		name   string
		x, y   []float64
		method string
	}{
		{"exact", []float64{1.1, 2.3, 3.2, 4.8, 5.1}, []float64{2.2, 3.9, 6.5, 7.7, 8.4, 9.6}, MethodExact},
		{"exact-ties", []float64{1, 2, 2, 3, 5}, []float64{2, 3, 3, 4, 6, 6}, MethodExactTies},
		{"normal", seq(60, 1.0, 0.37), seq(55, 3.0, 0.41), MethodNormal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tails, err := MannWhitneyTails(tc.x, tc.y)
			if err != nil {
				t.Fatal(err)
			}
			if tails.Method != tc.method {
				t.Fatalf("method %s, want %s", tails.Method, tc.method)
			}
			for alt, want := range map[Alternative]float64{Less: tails.Less, Greater: tails.Greater, TwoSided: tails.TwoSided()} {
				got, err := MannWhitney(tc.x, tc.y, alt)
				if err != nil || got.P != want || got.U != tails.U {
					t.Errorf("%v: MannWhitney = %+v, %v; tails give p=%v U=%v", alt, got, err, want, tails.U)
				}
			}
		})
	}
	if _, err := MannWhitneyTails(nil, []float64{1}); err == nil {
		t.Error("empty x accepted")
	}
}

// seq returns n values start, start+step, … folded so they are not sorted.
func seq(n int, start, step float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = start + step*float64((i*7)%n)
	}
	return out
}

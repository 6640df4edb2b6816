package changepoint

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// noisy is a flat level 100 with ±1% wobble.
var noisy = []float64{100, 101, 99, 100.5, 99.5, 100.2, 99.8, 100.7, 99.3, 100.1}

func scale(x []float64, by float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = v * by
	}
	return out
}

func cat(xs ...[]float64) []float64 {
	var out []float64
	for _, x := range xs {
		out = append(out, x...)
	}
	return out
}

// stepAt is 20 values of noisy wobble with the level ×by from index k on.
func stepAt(k int, by float64) []float64 {
	x := cat(noisy, noisy)
	for i := k; i < len(x); i++ {
		x[i] *= by
	}
	return x
}

func indexes(cs []Change) []int {
	out := []int{}
	for _, c := range cs {
		out = append(out, c.Index)
	}
	return out
}

func TestDetect(t *testing.T) {
	cases := []struct {
		name string
		x    []float64
		want []int
	}{
		{"empty", nil, []int{}},
		{"two values", []float64{1, 2}, []int{}},
		{"flat", cat(noisy, noisy), []int{}},
		{"regression", cat(noisy, scale(noisy, 1.2)), []int{10}},
		{"improvement", cat(noisy, scale(noisy, 0.8)), []int{10}},
		{"below the size threshold", cat(noisy, scale(noisy, 1.03)), []int{}},
		{"single outlier", cat(noisy, []float64{300}, noisy), []int{}},
		{"two steps", cat(noisy, scale(noisy, 1.3), noisy), []int{10, 20}},
		{"short blip", cat(noisy, scale(noisy[:3], 1.3), noisy), []int{10, 13}},
		// The case of issue 13: twelve runs, a step at run 7 (0-based).
		{"twelve runs, step at 7", cat(noisy[:7], scale(noisy[:5], 1.15)), []int{7}},
		// A slow drift is no level shift; Otava reports nothing either.
		{"slow drift", drift(20, 1.002), []int{}},
		// Noise as large as the shift: nothing is significant.
		{"noisy shift", []float64{100, 130, 95, 125, 100, 128, 99, 131, 102, 127, 125, 100, 130, 98, 129, 101, 126, 99, 130, 97}, []int{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := indexes(Detect(c.x, DefaultOptions())); !slices.Equal(got, c.want) {
				t.Errorf("Detect = %v, want %v", got, c.want)
			}
		})
	}
}

// TestDetectEveryPosition moves one 10% step through every index of a
// 20-run history, the first and last runs included.
func TestDetectEveryPosition(t *testing.T) {
	for k := 1; k < 20; k++ {
		for _, by := range []float64{1.1, 0.9} {
			got := Detect(stepAt(k, by), DefaultOptions())
			if len(got) != 1 || got[0].Index != k {
				t.Errorf("step ×%v at %d: Detect = %v, want [%d]", by, k, indexes(got), k)
				continue
			}
			if r := got[0].Ratio(); math.Abs(r-(by-1)) > 0.02 {
				t.Errorf("step ×%v at %d: ratio %.4f", by, k, r)
			}
		}
	}
}

func TestChangeFields(t *testing.T) {
	got := Detect(cat(noisy, scale(noisy, 1.2)), DefaultOptions())
	if len(got) != 1 {
		t.Fatalf("Detect = %v, want one change", got)
	}
	c := got[0]
	if c.Before != median(noisy) || c.After != median(scale(noisy, 1.2)) {
		t.Errorf("medians %v → %v, want %v → %v", c.Before, c.After, median(noisy), median(scale(noisy, 1.2)))
	}
	if !(c.P > 0 && c.P < 1e-10) {
		t.Errorf("p = %g, want tiny and positive", c.P)
	}
}

func TestDetectOptions(t *testing.T) {
	x := cat(noisy, scale(noisy, 1.03))
	if got := Detect(x, Options{MaxP: 0.001, MinChange: 0.02}); !slices.Equal(indexes(got), []int{10}) {
		t.Errorf("3%% step with a 2%% threshold: %v, want [10]", indexes(got))
	}
	if got := Detect(cat(noisy, scale(noisy, 1.2)), Options{MaxP: 1e-30, MinChange: 0.05}); len(got) != 0 {
		t.Errorf("p < 1e-30: %v, want none", indexes(got))
	}
}

func TestBestSplit(t *testing.T) {
	// Brute force Q for every τ and compare the argmax.
	for k := 1; k < 20; k++ {
		x := stepAt(k, 1.5)
		if got, _ := bestSplit(x, nil); got != k {
			t.Errorf("step at %d: bestSplit = %d", k, got)
		}
	}
	x := []float64{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5}
	best, bestQ := 0, math.Inf(-1)
	for tau := 1; tau < len(x); tau++ {
		for kappa := tau + 1; kappa <= len(x); kappa++ {
			if q := bruteQ(x[:tau], x[tau:kappa]); q > bestQ {
				best, bestQ = tau, q
			}
		}
	}
	if got, q := bestSplit(x, nil); got != best || math.Abs(q-bestQ) > 1e-9 {
		t.Errorf("bestSplit = %d (Q %v), brute force %d (Q %v)", got, q, best, bestQ)
	}
}

// bruteQ is the E-divisive statistic spelled out from its definition.
func bruteQ(x, y []float64) float64 {
	a, b := float64(len(x)), float64(len(y))
	var between, wx, wy float64
	for _, u := range x {
		for _, v := range y {
			between += math.Abs(u - v)
		}
	}
	for i := range x {
		for k := i + 1; k < len(x); k++ {
			wx += math.Abs(x[i] - x[k])
		}
	}
	for i := range y {
		for k := i + 1; k < len(y); k++ {
			wy += math.Abs(y[i] - y[k])
		}
	}
	return a * b / (a + b) * (2*between/(a*b) - pairMean(wx, a) - pairMean(wy, b))
}

func drift(n int, rate float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = 100 * math.Pow(rate, float64(i))
	}
	return out
}

// TestNarrowSeriesHaveNoChange: a series whose values lie within the
// threshold of each other is answered without the search (narrowerThan),
// and the search agrees on every such series: steps, excursions and
// noise that stop just short of MinChange overall, and thresholds the
// series' spread just reaches.
func TestNarrowSeriesHaveNoChange(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 72))
	o := DefaultOptions()
	narrow := 0
	for i := range 200 {
		n := 5 + rng.IntN(120)
		x := make([]float64, n)
		width := 0.04 + 0.02*rng.Float64() // the series' spread: 4% to 6%, either side of 5%
		step := rng.IntN(n)
		for j := range x {
			u := rng.Float64()
			if j >= step { // a step of most of the spread, the noise the rest
				u = 0.8 + 0.2*u
			} else {
				u = 0.2 * u
			}
			x[j] = 1000 * (1 + width*u)
		}
		full := detect(x, o, bestSplit, permutationSignificant)
		if !narrowerThan(x, o.MinChange) {
			continue
		}
		narrow++
		if len(full) != 0 {
			t.Errorf("series %d (%d runs, spread %.4f): narrow, yet the search finds %v", i, n, slices.Max(x)/slices.Min(x)-1, full)
		}
		if got := Detect(x, o); got == nil || len(got) != 0 {
			t.Errorf("series %d: Detect = %#v, want an empty list", i, got)
		}
	}
	if narrow < 30 || narrow > 170 {
		t.Errorf("%d of 200 series narrow: the test no longer straddles the threshold", narrow)
	}
	for _, c := range []struct {
		name string
		x    []float64
		want bool
	}{
		{"empty", nil, false},
		{"zero", []float64{0, 0}, false},
		{"negative", []float64{-1, -1.01}, false},
		{"NaN", []float64{1, math.NaN()}, false},
		{"infinite", []float64{math.Inf(1)}, false},
		{"4.99%", []float64{100, 104.99}, true},
		{"5%", []float64{100, 105}, false},
		{"5% down", []float64{105, 100}, false},
	} {
		if got := narrowerThan(c.x, o.MinChange); got != c.want {
			t.Errorf("narrowerThan(%s) = %v, want %v", c.name, got, c.want)
		}
	}
}

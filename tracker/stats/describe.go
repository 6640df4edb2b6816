package stats

import (
	"math"
	"slices"
)

// A Summary holds descriptive statistics of a sample.
type Summary struct {
	N      int
	Median float64
	Mean   float64
	Std    float64 // sample standard deviation (n−1 denominator); 0 when N < 2
	CV     float64 // Std/Mean; 0 when Mean is 0
	Min    float64
	Max    float64
	P95    float64 // quantiles interpolate linearly (R type 7, numpy's default)
	P99    float64
	MAD    float64 // raw median(|x − Median|), not scaled by 1.4826
}

// Describe summarises x, whose values the caller has checked are finite.
// An empty x gives the zero Summary rather than NaNs, which JSON cannot
// carry.
func Describe(x []float64) Summary {
	n := len(x)
	if n == 0 {
		return Summary{}
	}
	s := sortedView(x)
	sum := Summary{N: n, Min: s[0], Max: s[n-1], Median: Quantile(s, 0.5),
		P95: Quantile(s, 0.95), P99: Quantile(s, 0.99)}
	for _, v := range s {
		sum.Mean += v
	}
	sum.Mean /= float64(n)
	if n > 1 {
		var ss float64
		for _, v := range s {
			ss += (v - sum.Mean) * (v - sum.Mean)
		}
		sum.Std = math.Sqrt(ss / float64(n-1))
	}
	if sum.Mean != 0 {
		sum.CV = sum.Std / sum.Mean
	}
	sum.MAD = medianAbsDev(s, sum.Median)
	return sum
}

// medianAbsDev returns the median of |s[i] − med| for sorted s: the
// quantile Quantile would give of the sorted deviations, found without
// sorting them. The deviations left of med, read leftwards, and those
// right of it, read rightwards, are both increasing, so merging the two
// walks visits them in order; the walk stops past the middle.
func medianAbsDev(s []float64, med float64) float64 {
	n := len(s)
	hi, _ := slices.BinarySearch(s, med) // s[:hi] < med ≤ s[hi:]
	lo := hi - 1
	want := n / 2 // the last 0-based rank Quantile(·, 0.5) reads
	var prev, cur float64
	for r := 0; r <= want; r++ {
		prev = cur
		if lo >= 0 && (hi >= n || math.Abs(s[lo]-med) <= math.Abs(s[hi]-med)) {
			cur = math.Abs(s[lo] - med)
			lo--
		} else {
			cur = math.Abs(s[hi] - med)
			hi++
		}
	}
	if n%2 == 1 {
		return cur
	}
	return prev + 0.5*(cur-prev)
}

// Quantile returns the q-quantile of sorted s by linear interpolation
// between order statistics (R's type 7).
func Quantile(s []float64, q float64) float64 {
	h := q * float64(len(s)-1)
	i := int(math.Floor(h))
	if i+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[i] + (h-float64(i))*(s[i+1]-s[i])
}

// MedianInPlace returns the median of x, which holds no NaN, reordering x
// to find it in linear time: the value Quantile gives of x sorted.
func MedianInPlace(x []float64) float64 {
	n := len(x)
	if n == 0 {
		return math.NaN()
	}
	r := (n - 1) / 2
	a := quickselect(x, r)
	if n%2 == 1 {
		return a
	}
	return (a + slices.Min(x[r+1:])) / 2
}

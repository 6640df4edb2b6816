package stats

import (
	"math"
	"slices"
)

// AdjustBH returns Benjamini-Hochberg adjusted p-values in the order of p,
// matching R's p.adjust(p, method="BH"): the running minimum, from the
// largest p down, of n/i·p_(i), capped at 1. NaN entries stay NaN and do
// not count towards n, as NA in R.
func AdjustBH(p []float64) []float64 {
	out, idx := adjustSetup(p)
	n := len(idx)
	slices.Reverse(idx) // decreasing p
	running := math.Inf(1)
	for r, i := range idx {
		running = min(running, float64(n)/float64(n-r)*p[i])
		out[i] = min(1, running)
	}
	return out
}

// AdjustHolm returns Holm step-down adjusted p-values in the order of p,
// matching R's p.adjust(p, method="holm"): the running maximum, from the
// smallest p up, of (n−i+1)·p_(i), capped at 1. NaN entries stay NaN and do
// not count towards n.
func AdjustHolm(p []float64) []float64 {
	out, idx := adjustSetup(p)
	n := len(idx)
	running := 0.0
	for r, i := range idx {
		running = max(running, float64(n-r)*p[i])
		out[i] = min(1, running)
	}
	return out
}

// adjustSetup returns an output slice with NaNs in place and the indices
// of the other p-values sorted by increasing p.
func adjustSetup(p []float64) (out []float64, idx []int) {
	out = make([]float64, len(p))
	idx = make([]int, 0, len(p))
	for i, v := range p {
		if math.IsNaN(v) {
			out[i] = v
			continue
		}
		idx = append(idx, i)
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmpFloat(p[a], p[b]) })
	return out, idx
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

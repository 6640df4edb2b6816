package site

import "math"

// Downsample returns the indexes of at most n of the points (x[i], y[i])
// chosen by Largest-Triangle-Three-Buckets (Steinarsson, "Downsampling
// Time Series for Visual Representation", 2013): the first and last
// points, and from each of n−2 equal buckets between them the point that
// makes the largest triangle with the point kept before it and the mean
// of the next bucket. Peaks and steps survive; flat noise thins out.
// With n ≥ len(x) (or n < 3) every index is returned.
func Downsample(x, y []float64, n int) []int {
	total := len(x)
	if n >= total || n < 3 {
		out := make([]int, total)
		for i := range out {
			out[i] = i
		}
		return out
	}
	out := make([]int, 0, n)
	out = append(out, 0)
	every := float64(total-2) / float64(n-2)
	a := 0
	for b := 0; b < n-2; b++ {
		lo := int(math.Floor(float64(b)*every)) + 1
		hi := min(int(math.Floor(float64(b+1)*every))+1, total-1)
		// The mean of the next bucket (the last point for the last one).
		nlo, nhi := hi, min(int(math.Floor(float64(b+2)*every))+1, total)
		if nlo >= nhi {
			nlo, nhi = total-1, total
		}
		var mx, my float64
		for i := nlo; i < nhi; i++ {
			mx += x[i]
			my += y[i]
		}
		mx /= float64(nhi - nlo)
		my /= float64(nhi - nlo)
		best, bestArea := lo, -1.0
		for i := lo; i < hi; i++ {
			area := math.Abs((x[a]-mx)*(y[i]-y[a]) - (x[a]-x[i])*(my-y[a]))
			if area > bestArea {
				best, bestArea = i, area
			}
		}
		out = append(out, best)
		a = best
	}
	return append(out, total-1)
}

package stats

import (
	"math"
	"slices"
)

// OutlierK is how many robust standard deviations an outlier job lies from
// both its neighbours (OutlierJobs).
const OutlierK = 5

// OutlierFloor is the smallest move (on the log scale) that can make a job
// an outlier, whatever the spread: timings quantised to one tick have a
// robust spread of 0.
const OutlierFloor = 0.01

// OutlierJobs marks the isolated outliers of a series x of job means in
// time order (log scale), by a Hampel rule on successive differences: the
// series' noise σ is estimated from the median absolute successive
// difference (MASD/(0.6745·√2), which a step moves by one difference
// only), and a job is an outlier when it lies more than OutlierK·σ, and
// more than OutlierFloor, from both its neighbours on the same side, while
// those neighbours agree with each other within OutlierK·σ. A step is not
// an outlier: the job after it agrees with it. The first job is judged
// against the two after it; the last is never marked (a newest job on a
// new level cannot be told from a bad one yet: see the callers). Series of
// fewer than four jobs have no outliers.
func OutlierJobs(x []float64) []bool {
	n := len(x)
	out := make([]bool, n)
	if n < 4 {
		return out
	}
	d := make([]float64, n-1)
	for i := range d {
		d[i] = math.Abs(x[i+1] - x[i])
	}
	slices.Sort(d)
	sigma := Quantile(d, 0.5) / (0.6744897501960817 * math.Sqrt2)
	lim := max(OutlierK*sigma, OutlierFloor)
	far := func(i, j int) float64 { return x[i] - x[j] }
	for i := 0; i < n-1; i++ {
		a, b := i-1, i+1
		if i == 0 {
			a, b = 1, 2
		}
		da, db := far(i, a), far(i, b)
		if math.Abs(da) > lim && math.Abs(db) > lim && (da > 0) == (db > 0) && math.Abs(x[a]-x[b]) <= lim {
			out[i] = true
		}
	}
	return out
}

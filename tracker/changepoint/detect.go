package changepoint

import (
	"math"
	"slices"
)

// Options tune detection.
type Options struct {
	// MaxP is the largest t-test p-value that makes a split a change
	// point. Hunter and Otava default to 0.001; it must be small because
	// every history is split many times.
	MaxP float64
	// MinChange is the smallest relative change of the median between the
	// segments either side of a change point (0.05 = 5%). A change point
	// that is significant but smaller is not reported: on a quiet GPU a
	// 0.2% shift is real and not worth a look.
	MinChange float64
}

// DefaultOptions are p < 0.001 and a 5% move, Hunter's defaults.
func DefaultOptions() Options { return Options{MaxP: 0.001, MinChange: 0.05} }

// A Change is a point where the level of a series shifts.
type Change struct {
	// Index is the first value of the new level.
	Index int
	// Before and After are the medians of the segments before and after
	// Index, each reaching to the neighbouring change point or the end.
	Before, After float64
	// P is the two-sided p-value of the t-test between those segments.
	P float64
}

// Ratio is After/Before − 1, the relative move of the level.
func (c Change) Ratio() float64 { return c.After/c.Before - 1 }

// Detect returns the change points of x in order, in two stages.
//
// Candidates: x is split where the energy statistic Q of E-divisive means
// is largest, and both halves are split again in turn, for as long as a
// split is significant by E-divisive's own permutation test (199
// permutations, p ≤ 0.05, Matteson and James's defaults) or passes the
// t-test of o. The permutation test finds a short excursion that returns
// to the old level, which a t-test of the two halves misses; the t-test
// finds a step with a single run on one side, which no permutation test of
// n values can show below p = 2/n.
//
// Validation: every candidate is re-tested against the candidates next to
// it (the segments between them), and the one failing worst is dropped
// until all pass: only splits with t-test p < o.MaxP and a move of the
// median of at least o.MinChange are returned (Otava's validation step).
//
// Time is O(n²) for the first split and up to 200 times that when the
// t-test rejects it, memory O(n): callers bound n (the site detects on the
// latest runs). A test's permutations are judged on the calling goroutine
// and on helpers, at most GOMAXPROCS − 1 of them for all the tests of the
// process, each with O(n) memory. A flat history, most of whose permutations reach its Q,
// costs about one split more: a certifier shows that they do in
// O(n log n) each (permutationSignificant).
//
// A series whose values all lie within o.MinChange of each other has no
// change point, as no two medians of its segments can differ by more; it
// is answered without the search (narrowerThan).
func Detect(x []float64, o Options) []Change {
	if narrowerThan(x, o.MinChange) {
		return []Change{}
	}
	return detect(x, o, bestSplit, permutationSignificant)
}

// narrowerThan reports whether x is positive and every ratio of two of its
// values, as Options.test computes it (b/a − 1), is smaller than minChange
// in magnitude. A median of any segment of x lies between x's smallest and
// largest values, and rounded division and subtraction are monotonic, so
// then no split can pass the test: Detect would try splits, then drop every
// candidate in validation. For a quiet history (a GPU benchmark whose runs
// move ±1%) this replaces the O(n²) search and its permutation test with
// one pass.
func narrowerThan(x []float64, minChange float64) bool {
	if len(x) == 0 {
		return false
	}
	lo, hi := x[0], x[0]
	for _, v := range x {
		if !(v > 0) || math.IsInf(v, 0) { // NaN too
			return false
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	return math.Abs(hi/lo-1) < minChange && math.Abs(lo/hi-1) < minChange
}

// detect is Detect with its two costly steps passed in, so that tests can
// check it against the versions first written.
func detect(x []float64, o Options, bestSplit func(x, buf []float64) (int, float64),
	permutationSignificant func(seg []float64, q float64, offset uint64, buf []float64) bool) []Change {
	var cps []int
	buf := make([]float64, 4*len(x)+1) // bestSplit's working sums
	var split func(lo, hi int)
	split = func(lo, hi int) {
		if hi-lo < 3 {
			return
		}
		seg := x[lo:hi]
		tau, q := bestSplit(seg, buf)
		if _, ok := o.test(seg[:tau], seg[tau:]); !ok && !permutationSignificant(seg, q, uint64(lo), buf) {
			return
		}
		tau += lo
		cps = append(cps, tau)
		split(lo, tau)
		split(tau, hi)
	}
	split(0, len(x))
	slices.Sort(cps)
	for {
		worst, worstP := -1, -1.0
		for k := range cps {
			lo, hi := bounds(cps, k, len(x))
			if p, ok := o.test(x[lo:cps[k]], x[cps[k]:hi]); !ok && p > worstP {
				worst, worstP = k, p
			}
		}
		if worst < 0 {
			break
		}
		cps = slices.Delete(cps, worst, worst+1)
	}
	out := make([]Change, len(cps))
	for k, c := range cps {
		lo, hi := bounds(cps, k, len(x))
		out[k] = Change{Index: c, Before: median(x[lo:c]), After: median(x[c:hi]), P: studentP(x[lo:c], x[c:hi])}
	}
	return out
}

// bounds returns the segment around change point k: from the previous
// change point (or 0) to the next (or n).
func bounds(cps []int, k, n int) (lo, hi int) {
	if k > 0 {
		lo = cps[k-1]
	}
	hi = n
	if k+1 < len(cps) {
		hi = cps[k+1]
	}
	return lo, hi
}

// test reports the t-test p-value of a split into a and b and whether the
// split is a change point under o.
func (o Options) test(a, b []float64) (float64, bool) {
	p := studentP(a, b)
	if p >= o.MaxP {
		return p, false
	}
	before := median(a)
	r := median(b)/before - 1
	if before == 0 || math.IsNaN(r) || math.IsInf(r, 0) {
		return p, false
	}
	return p, math.Abs(r) >= o.MinChange
}

// pairMean divides a sum over the pairs of k values by their number.
func pairMean(sum, k float64) float64 {
	if k < 2 {
		return 0
	}
	return sum / (k * (k - 1) / 2)
}

// median of x (the mean of the two middle values for an even count).
func median(x []float64) float64 {
	s := slices.Sorted(slices.Values(x))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

package stats

import (
	"fmt"
	"math"
	"slices"
	"sync"
)

// HodgesLehmannRatio estimates the ratio cand/base as the median of all n·m
// pairwise ratios cand_j/base_i, which is the Hodges-Lehmann shift of the
// logarithms, exponentiated. lo and hi bound a distribution-free confidence
// interval for that ratio at level conf (such as 0.99): the k-th smallest
// and k-th largest pairwise ratio, with k from the exact null distribution
// of U when both samples have at most 50 values and from the normal
// approximation otherwise. The estimate and the indices match R's
//
//	wilcox.test(log(cand), log(base), conf.int=TRUE, conf.level=conf)
//
// exponentiated; R takes its exact branch only below 50 values per side and
// without ties, and otherwise finds the same order statistics by root
// finding to within 1e-4. Ties do not change k, which makes the interval
// conservative when there are ties. When no k achieves conf, k = 1 and the
// interval spans every ratio, as in R.
//
// It returns an error wrapping ErrEmptySample, ErrNonFinite, ErrNonPositive
// or ErrConfidence for unusable input. The pairwise ratios are never
// materialised: order statistics are selected in O((n+m) log(nm)) expected
// time.
func HodgesLehmannRatio(base, cand []float64, conf float64) (est, lo, hi float64, err error) {
	if !(conf > 0 && conf < 1) {
		return 0, 0, 0, fmt.Errorf("stats: confidence %v: %w", conf, ErrConfidence)
	}
	w := hlScratchPool.Get().(*hlScratch)
	defer hlScratchPool.Put(w)
	if w.b, err = sortedLogs("base", base, w.b[:0]); err != nil {
		return 0, 0, 0, err
	}
	if w.c, err = sortedLogs("cand", cand, w.c[:0]); err != nil {
		return 0, 0, 0, err
	}
	b, c, s := w.b, w.c, &w.sel
	s.reset(b, c)
	nm := len(b) * len(c)
	mid, next := s.kthPair((nm+1)/2, nm%2 == 0)
	mid = (mid + next) / 2
	k := ciIndex(b, c, conf)
	return math.Exp(mid), math.Exp(s.kth(k)), math.Exp(s.kth(nm + 1 - k)), nil
}

// An hlScratch holds the buffers of one HodgesLehmannRatio call. A compare
// makes one call per benchmark, so they are reused rather than allocated.
type hlScratch struct {
	b, c []float64 // the sorted logarithms
	sel  selector
}

var hlScratchPool = sync.Pool{New: func() any { return new(hlScratch) }}

// ciIndex returns the 1-based index k of the lower confidence bound among
// the sorted pairwise differences c_j − b_i; the upper bound is the
// (nm+1−k)-th.
func ciIndex(b, c []float64, conf float64) int {
	n, m := len(b), len(c)
	nm := n * m
	alpha := 1 - conf
	var k int
	if n <= exactMax && m <= exactMax {
		k = exactDist(n, m).quantile(alpha / 2)
	} else {
		// R inverts the continuity-corrected normal statistic; its root
		// falls on this order statistic.
		N := float64(n + m)
		tieTerm := tieSum(b) + tieSum(c)
		sigma := math.Sqrt(float64(nm) / 12 * ((N + 1) - tieTerm/(N*(N-1))))
		z := -normalQuantile(alpha / 2)
		k = int(math.Floor(float64(nm)/2 + 0.5 - z*sigma))
	}
	return min(max(k, 1), (nm+1)/2)
}

// tieSum returns Σ (t³ − t) over the groups of equal values of sorted x.
func tieSum(x []float64) float64 {
	var s float64
	for i := 0; i < len(x); {
		j := i + 1
		for j < len(x) && x[j] == x[i] {
			j++
		}
		t := float64(j - i)
		s += t*t*t - t
		i = j
	}
	return s
}

// sortedLogs appends the logarithms of x to dst and returns them in
// increasing order.
func sortedLogs(name string, x, dst []float64) ([]float64, error) {
	if err := checkSample(name, x); err != nil {
		return dst, err
	}
	l := slices.Grow(dst[:0], len(x))
	for i, v := range x {
		if v <= 0 {
			return l, fmt.Errorf("stats: sample %s[%d] = %v: %w", name, i, v, ErrNonPositive)
		}
		l = append(l, math.Log(v))
	}
	sortFloats(l)
	return l, nil
}

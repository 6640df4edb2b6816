package stats

import (
	"math"
	"slices"
	"sync"
)

// exactMax is the largest sample size, on either side, for which p-values
// come from the exact null distribution of U when there are no ties.
const exactMax = 50

// exactTiesMax is the largest sample size, on either side, for which
// p-values come from the exact tie-aware null distribution of U.
const exactTiesMax = 25

// A uDist is the exact null distribution of the Mann-Whitney U statistic
// for samples of sizes n and m without ties.
type uDist struct {
	n, m int
	// cum[u] is the number of the C(n+m, n) equally likely assignments
	// with U ≤ u. It is a sum of positive counts, so lower tails far below
	// 1e-30 keep full relative precision; upper tails come from symmetry.
	cum []float64
}

type nm struct{ n, m int }

// uDists caches one uDist per (n, m); building 50×50 takes milliseconds.
var uDists sync.Map // nm -> *uDist

// exactDist returns the cached null distribution of U for sizes n and m.
func exactDist(n, m int) *uDist {
	key := nm{n, m}
	if d, ok := uDists.Load(key); ok {
		return d.(*uDist)
	}
	d, _ := uDists.LoadOrStore(key, newUDist(n, m))
	return d.(*uDist)
}

// newUDist counts assignments by U with a DP over the n+m ranks in
// increasing order: dp[k][u] is the number of ways to give k of the ranks
// seen so far to x with partial U = u. Giving rank j (0-based) to x when k
// x's precede it adds the j-k y's below it to U. Only additions are
// involved, so no precision is lost to cancellation.
func newUDist(n, m int) *uDist {
	N, w := n+m, n*m+1
	dp := make([]float64, (n+1)*w)
	dp[0] = 1
	for j := range N {
		// States that can no longer reach n x's are dead; k descends so
		// that dp[k] is read before this step overwrites it.
		for k := min(j, n-1); k >= max(0, n-(N-j)); k-- {
			row, next, add := dp[k*w:], dp[(k+1)*w:], j-k
			for u := k * (j - k); u >= 0; u-- {
				next[u+add] += row[u]
			}
		}
	}
	cum := slices.Clone(dp[n*w : n*w+w]) // drop the rest of the table
	for u := 1; u < w; u++ {
		cum[u] += cum[u-1]
	}
	return &uDist{n: n, m: m, cum: cum}
}

// total returns C(n+m, n), the number of assignments.
func (d *uDist) total() float64 { return d.cum[len(d.cum)-1] }

// le returns P(U ≤ u).
func (d *uDist) le(u float64) float64 {
	if u < 0 {
		return 0
	}
	i := int(math.Floor(u))
	if i >= len(d.cum) {
		return 1
	}
	return d.cum[i] / d.total()
}

// ge returns P(U ≥ u), using the symmetry of U about nm/2.
func (d *uDist) ge(u float64) float64 { return d.le(float64(d.n*d.m) - u) }

// quantile returns the smallest u with P(U ≤ u) ≥ p, with the same
// 10·ε fuzz as R's qwilcox so that interval indices match R.
func (d *uDist) quantile(p float64) int {
	p -= 10 * 2.220446049250313e-16
	t := d.total()
	for u, c := range d.cum {
		if c/t >= p {
			return u
		}
	}
	return len(d.cum) - 1
}

// tieLE returns P(2U ≤ limit) under the exact permutation null
// distribution of U for n x's and the tie groups of the pooled sample,
// given as group sizes in increasing order of value. U counts a tied x-y
// pair as 1/2, which is what midranks give. A DP over the groups places k
// of a group's t items in x with weight C(t, k); each such x beats the y's
// of earlier groups and ties the t-k y's of its own group. Contributions
// to 2U are never negative, so states past limit can be dropped: the work
// shrinks with the tail that is asked for.
func tieLE(n int, groups []int, limit int) float64 {
	N := 0
	for _, t := range groups {
		N += t
	}
	m := N - n
	limit = min(limit, 2*n*m)
	if limit < 0 {
		return 0
	}
	w := limit + 1
	bufp := dpBufs.Get().(*[]float64)
	defer dpBufs.Put(bufp)
	if cap(*bufp) < 2*(n+1)*w {
		*bufp = make([]float64, 2*(n+1)*w)
	}
	// Only states a group can reach are cleared and read, so stale values
	// from an earlier call never leak in.
	cur, next := (*bufp)[:(n+1)*w], (*bufp)[(n+1)*w:2*(n+1)*w]
	cur[0] = 1
	seen := 0 // items in earlier groups
	for _, t := range groups {
		// Clear only the states this group can reach.
		for j := max(0, n-(N-seen-t)); j <= min(n, seen+t); j++ {
			clear(next[j*w : j*w+min(limit, 2*j*(seen+t-j))+1])
		}
		binom := binomialRow(t)
		for kp := max(0, n-(N-seen)); kp <= min(n, seen); kp++ {
			row := cur[kp*w : kp*w+min(limit, 2*kp*(seen-kp))+1]
			for k := max(0, n-(N-seen-t)-kp); k <= min(t, n-kp); k++ {
				add, c := 2*k*(seen-kp)+k*(t-k), binom[k]
				if add > limit {
					continue
				}
				dst := next[(kp+k)*w+add : (kp+k+1)*w]
				for h, v := range row[:min(len(row), len(dst))] {
					dst[h] += v * c
				}
			}
		}
		cur, next = next, cur
		seen += t
	}
	var le float64
	for _, c := range cur[n*w : (n+1)*w] {
		le += c
	}
	return le / binomialRow(N)[n]
}

// dpBufs recycles tieLE's DP tables, which reach 2·26·1251 float64s.
var dpBufs = sync.Pool{New: func() any { return new([]float64) }}

// binomialRow returns C(t, 0..t) as float64.
func binomialRow(t int) []float64 {
	row := make([]float64, t+1)
	row[0] = 1
	for k := 1; k <= t; k++ {
		row[k] = row[k-1] * float64(t-k+1) / float64(k)
	}
	return row
}

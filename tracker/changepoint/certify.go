package changepoint

import (
	"math"
	"slices"
)

// shortWindow is the longest y segment (κ − τ) that a certifier tries. A
// permutation of a flat history reaches the observed Q mostly with a
// short excursion: a few extreme values together (2–16 of 1,000 in most
// histories measured for docs/speed.md).
const shortWindow = 16

// A certifier shows cheaply that some split of a permutation has Q ≥ q,
// without the O(n²) scan: it computes Q for the splits whose y segment
// is at most shortWindow long from sums over sorted ranks (O(n log n) for
// all prefixes, O(n·shortWindow) for the windows), with a bound on how far
// both that value and the scan's exact one (scanSplits, the sums in table
// order) can lie from Q in real arithmetic. A split whose computed Q less
// that bound is ≥ q has an exact Q ≥ q, so reaches would say true. When
// no split is shown, the caller scans: the certifier never says "no".
type certifier struct {
	n      int
	y      []float64 // the permutation, less its smallest value
	rank   []int32   // rank of each value of the permutation in sorted order
	cnt    []int32   // Fenwick tree of counts by rank
	sum    []float64 // Fenwick tree of y by rank
	prefix []float64 // prefix[p] ≈ Σ_{i<j<p} |x_i − x_j|
	win    []float64 // win[τ mod shortWindow] ≈ Σ_{τ≤i<j<m} |x_i − x_j|
	meanX  []float64 // meanX[τ] ≈ pairMean(prefix[τ], τ)
	// invPairs[b] = 1/C(b, 2), 0 for b < 2.
	invPairs []float64
	delta    float64 // a bound on the error of each sum of distances, both ways
}

func newCertifier(n int) *certifier {
	c := &certifier{n: n, y: make([]float64, n), rank: make([]int32, n), cnt: make([]int32, n+1),
		sum: make([]float64, n+1), prefix: make([]float64, n+1), win: make([]float64, shortWindow),
		meanX: make([]float64, n+1), invPairs: make([]float64, shortWindow+1)}
	for b := 2; b <= shortWindow; b++ {
		c.invPairs[b] = 1 / (float64(b) * float64(b-1) / 2)
	}
	return c
}

// ranks returns the rank of each value of seg (ties in order of position).
func ranks(seg []float64) []int32 {
	idx := make([]int32, len(seg))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortStableFunc(idx, func(i, j int32) int {
		switch {
		case seg[i] < seg[j]:
			return -1
		case seg[i] > seg[j]:
			return 1
		}
		return 0
	})
	r := make([]int32, len(seg))
	for k, i := range idx {
		r[i] = int32(k)
	}
	return r
}

// reaches reports whether it can show that a split of perm (whose ranks
// are rank) has an exact Q ≥ q. It needs every value finite.
func (c *certifier) reaches(perm []float64, rank []int32, q float64) bool {
	n := c.n
	if n < 3 {
		return false
	}
	lo, hi := perm[0], perm[0]
	for _, v := range perm {
		lo, hi = min(lo, v), max(hi, v)
	}
	r := hi - lo
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return false
	}
	for i, v := range perm {
		c.y[i] = v - lo
	}
	copy(c.rank, rank)
	// Each sum below (prefix, window, and the scan's between/within sums)
	// adds at most n² distances ≤ r, each through ≤ 4n roundings of
	// relative size 2⁻⁵³ (sequential and tree sums, products by counts,
	// the shift by lo): n³·r·2⁻⁵¹ bounds either's error; 64 times that is
	// the margin.
	fn := float64(n)
	c.delta = 64 * fn * fn * fn * r * 0x1p-51
	c.fillPrefix()
	return c.windows(q)
}

// fillPrefix sets prefix[p] to the sum of the distances between the first
// p values, each value's distances to those before it from Fenwick trees
// of counts and sums by rank.
func (c *certifier) fillPrefix() {
	clear(c.cnt)
	clear(c.sum)
	var total, acc float64
	for p := range c.n {
		v, k := c.y[p], int(c.rank[p])
		var cl int32
		var sl float64
		for i := k; i > 0; i -= i & -i {
			cl += c.cnt[i]
			sl += c.sum[i]
		}
		cg := int32(p) - cl
		d := v*float64(cl-cg) - sl + (total - sl)
		c.prefix[p] = acc
		acc += d
		total += v
		for i := k + 1; i <= c.n; i += i & -i {
			c.cnt[i]++
			c.sum[i] += v
		}
	}
	c.prefix[c.n] = acc
	for p := range c.n + 1 {
		c.meanX[p] = pairMean(c.prefix[p], float64(p))
	}
}

// windows tries every split with a y segment of 1…shortWindow values. An
// estimate with reciprocals (as scanSplits's) rules out at once the
// splits far below q; shows judges the others.
func (c *certifier) windows(q float64) bool {
	y, w, mx, ip := c.y, c.win, c.meanX, c.invPairs
	for m := range c.n { // m: the last value of y
		w[m%shortWindow] = 0
		s := 1 / float64(m+1) // 1/(a+b)
		pm := c.prefix[m+1]
		var d float64 // Σ_{τ≤j<m} |y_j − y_m|
		for tau := m; tau >= 1 && m-tau < shortWindow; tau-- {
			if tau < m {
				d += math.Abs(y[tau] - y[m])
				w[tau%shortWindow] += d
			}
			wy := w[tau%shortWindow]
			a, b := float64(tau), float64(m+1-tau)
			first, second := 2*(pm-c.prefix[tau]-wy)*s, a*b*s*(mx[tau]+wy*ip[m+1-tau])
			if first-second+1e-9*(math.Abs(first)+math.Abs(second)) < q {
				continue
			}
			if c.shows(tau, m+1, wy, q) {
				return true
			}
		}
	}
	return false
}

// shows reports whether split (τ, κ), with withinY the sum of the
// distances inside x[τ:κ], has Q ≥ q beyond doubt.
func (c *certifier) shows(tau, kappa int, withinY, q float64) bool {
	a, b := float64(tau), float64(kappa-tau)
	withinX := c.prefix[tau]
	between := c.prefix[kappa] - withinX - withinY
	first := 2 * between / (a + b)
	second := a * b / (a + b) * (pairMean(withinX, a) + pairMean(withinY, b))
	if !(first-second >= q) {
		return false
	}
	// How far each side of Q can move with sums off by delta.
	coef := 2 / (a + b)
	if a >= 2 {
		coef += a * b / (a + b) / (a * (a - 1) / 2)
	}
	if b >= 2 {
		coef += 2 * a * b / (a + b) / (b * (b - 1) / 2) // withinY and between both carry it
	}
	bound := 4*c.delta*coef + 0x1p-45*(math.Abs(first)+math.Abs(second))
	return first-second-bound >= q
}

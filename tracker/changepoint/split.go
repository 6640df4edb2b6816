package changepoint

import "math"

// bestSplit returns the τ in [1, len(x)) of the largest E-divisive
// statistic (α = 1) over the splits x[:τ] | x[τ:κ], τ < κ ≤ len(x),
//
//	Q(τ, κ) = ab/(a+b) · (2/(ab)·Σ|xᵢ−yⱼ| − 1/C(a,2)·Σ|xᵢ−xₖ| − 1/C(b,2)·Σ|yⱼ−yₖ|)
//
// with x = x[:τ] (a values) and y = x[τ:κ] (b values), and that largest Q.
// Letting y end before the end of the series (Matteson and James's κ) is
// what finds an excursion that comes back. buf, when large enough, holds
// the working sums.
func bestSplit(x, buf []float64) (int, float64) {
	return scanSplits(x, buf, math.Inf(1))
}

// reaches reports whether some split of x has a statistic Q ≥ q: whether
// bestSplit's Q would be ≥ q, stopping at the first split that shows it.
func reaches(x, buf []float64, q float64) bool {
	_, got := scanSplits(x, buf, q)
	return got >= q
}

// estimateTol bounds the difference between Q as defined (divisions) and
// its estimate (multiplications by reciprocals), relative to the size of
// its two terms: each is a handful of correctly rounded operations (about
// 16 units of 2⁻⁵³ in all), and this is 450 times that.
const estimateTol = 1e-12

// scanSplits visits every split and returns the first τ (the smallest)
// of the largest Q and that Q, or, once a Q ≥ stop turns up, that split at
// once (stop = +Inf for bestSplit).
//
// With the column sums of the distances kept up to date, each Q is an O(1)
// update: O(n²) time and O(n) space. The sums are added up in the same
// order as a full table col[i][k] = col[i−1][k] + |x[i−1] − x[k]| would
// hold them, and Q is computed exactly as defined (with divisions) wherever
// it can matter: a cheaper estimate, within estimateTol of it, rules out
// the splits that cannot beat the best so far (or reach stop). So the
// answer is the same to the last bit as evaluating Q everywhere in order.
// Rows τ and τ+1 are walked together: two independent chains of sums.
func scanSplits(x, buf []float64, stop float64) (int, float64) {
	n := len(x)
	if cap(buf) < 4*n+1 {
		buf = make([]float64, 4*n+1)
	}
	// Before round τ, col[k] = Σ_{j<τ} |x[j] − x[k]| for k ≥ τ;
	// diag[k] = Σ_{j<k} |x[j] − x[k]|; inv[s] = 1/s; invPairs[b] = 1/C(b, 2).
	col, diag, inv, invPairs := buf[:n], buf[n:2*n], buf[2*n:3*n+1], buf[3*n+1:4*n+1]
	clear(col)
	fillDiag(diag, x)
	for k := range n + 1 {
		inv[k] = 1 / float64(k)
		if k < n {
			invPairs[k] = 0
			if k >= 2 {
				invPairs[k] = 1 / (float64(k) * float64(k-1) / 2)
			}
		}
	}
	sb := newSplitBest(stop)
	var withinX float64 // Σ_{i<k<τ} |x[i] − x[k]|
	tau := 1
	for ; tau+1 < n; tau += 2 {
		// Row τ alone at p = τ, then rows τ and τ+1 at p = τ+1…n−1.
		wx1 := withinX + diag[tau-1]
		wx2 := wx1 + diag[tau]
		withinX = wx2
		a1, a2 := float64(tau), float64(tau+1)
		m1, m2 := pairMean(wx1, a1), pairMean(wx2, a2)
		x1, x2 := x[tau-1], x[tau]
		var between1, withinY1, between2, withinY2 float64
		c := col[tau] + math.Abs(x1-x[tau])
		between1 += c
		withinY1 += diag[tau] - c
		if !(estimate(inv[tau+1], a1, 1, m1, between1, withinY1, invPairs[1]) < sb.lim) && sb.consider(tau, a1, 1, m1, between1, withinY1) {
			return sb.best, sb.bestQ
		}
		cs := col[tau+1 : n]
		xs, ds, is := x[tau+1 : n][:len(cs)], diag[tau+1 : n][:len(cs)], inv[tau+2 : n+1][:len(cs)]
		ps1, ps2 := invPairs[2:][:len(cs)], invPairs[1:][:len(cs)]
		for i := range cs {
			v := xs[i]
			c1 := cs[i] + math.Abs(x1-v)
			c2 := c1 + math.Abs(x2-v)
			cs[i] = c2
			between1 += c1
			withinY1 += ds[i] - c1
			between2 += c2
			withinY2 += ds[i] - c2
			s, b1, b2 := is[i], float64(i+2), float64(i+1)
			e1 := estimate(s, a1, b1, m1, between1, withinY1, ps1[i])
			e2 := estimate(s, a2, b2, m2, between2, withinY2, ps2[i])
			if e1 < sb.lim && e2 < sb.lim {
				continue
			}
			if !(e1 < sb.lim) && sb.consider(tau, a1, b1, m1, between1, withinY1) ||
				!(e2 < sb.lim) && sb.consider(tau+1, a2, b2, m2, between2, withinY2) {
				return sb.best, sb.bestQ
			}
		}
	}
	if tau < n { // the last row, alone: p = n−1 only
		withinX += diag[tau-1]
		a := float64(tau)
		m := pairMean(withinX, a)
		c := col[tau] + math.Abs(x[tau-1]-x[tau])
		var between, withinY float64
		between += c
		withinY += diag[tau] - c
		sb.consider(tau, a, 1, m, between, withinY)
	}
	return sb.best, sb.bestQ
}

// estimate returns Q(τ, κ) computed with the reciprocals s = 1/(a+b) and
// ip = 1/C(b, 2) (0 for b < 2), plus estimateTol times the size of its
// terms: an upper bound of Q as defined. NaN (from infinite values) falls
// through every comparison, so such splits are computed exactly.
func estimate(s, a, b, meanX, between, withinY, ip float64) float64 {
	first, second := 2*between*s, a*b*s*(meanX+withinY*ip)
	return first - second + estimateTol*(math.Abs(first)+math.Abs(second))
}

// A splitBest is the best split found so far by scanSplits.
type splitBest struct {
	best     int
	bestQ    float64
	stop     float64
	tracking bool    // stop is +Inf: lim follows bestQ
	lim      float64 // Q is computed exactly where its estimate may reach lim
}

func newSplitBest(stop float64) splitBest {
	sb := splitBest{best: 1, bestQ: math.Inf(-1), stop: stop, tracking: math.IsInf(stop, 1), lim: stop}
	if sb.tracking {
		sb.lim = sb.bestQ
	}
	return sb
}

// consider computes Q of split (τ, a, b) exactly as defined and keeps it
// when it is larger, or as large at a smaller τ (rows are walked two at a
// time, so a later split can have a smaller τ). It reports whether Q
// reaches a finite stop; bestSplit (stop = +Inf) always scans to the end.
func (sb *splitBest) consider(tau int, a, b, meanX, between, withinY float64) bool {
	q := 2*between/(a+b) - a*b/(a+b)*(meanX+pairMean(withinY, b))
	if q > sb.bestQ || q == sb.bestQ && tau < sb.best {
		sb.best, sb.bestQ = tau, q
		if sb.tracking {
			sb.lim = sb.bestQ
		}
	}
	return !sb.tracking && q >= sb.stop
}

// fillDiag sets diag[k] = Σ_{j<k} |x[j] − x[k]|, each sum added up in
// order of j. Two sums are built side by side: one alone is a chain of
// dependent additions.
func fillDiag(diag, x []float64) {
	n := len(x)
	k := 0
	for ; k+1 < n; k += 2 {
		x0, x1 := x[k], x[k+1]
		var d0, d1 float64
		for _, v := range x[:k] {
			d0 += math.Abs(v - x0)
			d1 += math.Abs(v - x1)
		}
		diag[k], diag[k+1] = d0, d1+math.Abs(x0-x1)
	}
	if k < n {
		var d float64
		for _, v := range x[:k] {
			d += math.Abs(v - x[k])
		}
		diag[k] = d
	}
}

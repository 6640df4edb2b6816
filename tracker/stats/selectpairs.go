package stats

// A selector finds order statistics of the pairwise differences
// c[j] − b[i] of two sorted samples without forming all n·m of them.
// Row i holds c[·] − b[i]: increasing along a row, decreasing down a column.
// Selection is quickselect over the implicit matrix: each round counts the
// differences below an active pivot with a two-pointer walk in O(n+m) and
// discards, row by row, the part on the wrong side of it, until few enough
// remain (about 2(n+m)) to select among directly. Three or four rounds find
// one order statistic of 100×100 differences.
type selector struct {
	b, c   []float64
	lo, hi []int // the active columns of row i are [lo[i], hi[i])
	ltRow  []int // per row, the differences < pivot
	leRow  []int // per row, the differences ≤ pivot
	buf    []float64
	gather int    // gatherCap(len(b), len(c))
	rng    uint64 // splitmix64 state; a fixed seed keeps results pure
}

func newSelector(b, c []float64) *selector {
	s := new(selector)
	s.reset(b, c)
	return s
}

// reset points s at new samples, reusing its buffers, and restarts its
// random sequence, so that a reused selector selects exactly as a new one.
func (s *selector) reset(b, c []float64) {
	n := len(b)
	if cap(s.lo) < n {
		ints := make([]int, 4*n)
		s.lo, s.hi, s.ltRow, s.leRow = ints[:n:n], ints[n:2*n:2*n], ints[2*n:3*n:3*n], ints[3*n:]
	}
	s.lo, s.hi, s.ltRow, s.leRow = s.lo[:n], s.hi[:n], s.ltRow[:n], s.leRow[:n]
	s.gather = gatherCap(len(b), len(c))
	if cap(s.buf) < s.gather {
		s.buf = make([]float64, 0, s.gather)
	}
	s.b, s.c, s.rng = b, c, 0x9e3779b97f4a7c15
}

// gatherCap is the number of active differences below which selection
// stops narrowing and picks among them directly.
func gatherCap(n, m int) int { return 2*(n+m) + 32 }

// kth returns the k-th smallest difference, 1 ≤ k ≤ n·m.
func (s *selector) kth(k int) float64 {
	a, _ := s.kthPair(k, false)
	return a
}

// kthPair returns the k-th smallest difference and, when pair is set and
// k < n·m, the (k+1)-th as well, sharing the work of finding them.
func (s *selector) kthPair(k int, pair bool) (float64, float64) {
	last := k // the highest rank wanted
	if pair {
		last = k + 1
	}
	m := len(s.c)
	for i := range s.b {
		s.lo[i], s.hi[i] = 0, m
	}
	below, active := 0, len(s.b)*m // differences left of lo, and in [lo, hi)
	for slow := false; active > s.gather; {
		// Aim at the target's rank, but fall back to a random pivot when
		// the last round kept over 3/4 of the active set, so that the
		// expected work stays O((n+m) log(nm)) whatever the data.
		f := float64(k-below) / float64(active)
		if slow {
			f = -1
		}
		v := s.pivot(active, f)
		lt, le := s.count(v)
		prev := active
		switch {
		case last <= lt: // all wanted ranks are < v
			below, active = 0, 0
			for i, p := range s.ltRow {
				s.hi[i] = min(s.hi[i], p)
				below += s.lo[i]
				active += s.hi[i] - s.lo[i]
			}
		case k > le: // all wanted ranks are > v
			below, active = 0, 0
			for i, p := range s.leRow {
				s.lo[i] = max(s.lo[i], p)
				below += s.lo[i]
				active += s.hi[i] - s.lo[i]
			}
		case lt < k && last <= le:
			return v, v
		default: // v separates k from k+1: rare, select them apart
			return s.kth(k), s.kth(k + 1)
		}
		slow = 4*active > 3*prev
	}
	s.buf = s.buf[:0]
	for i, bi := range s.b {
		for _, cj := range s.c[s.lo[i]:s.hi[i]] {
			s.buf = append(s.buf, cj-bi)
		}
	}
	r := k - below - 1
	a := quickselect(s.buf, r)
	if !pair || r+1 >= len(s.buf) {
		return a, a
	}
	next := s.buf[r+1]
	for _, v := range s.buf[r+2:] {
		next = min(next, v)
	}
	return a, next
}

// pivot returns an active difference near relative rank f of the active
// ones: the element at fraction f of the active part of the middle row
// (the row holding the middle active element, so a typical one). With
// f < 0 it returns an active difference chosen uniformly at random.
func (s *selector) pivot(active int, f float64) float64 {
	r := active / 2
	if f < 0 {
		s.rng += 0x9e3779b97f4a7c15
		z := s.rng
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		r = int((z ^ z>>31) % uint64(active))
	}
	for i, bi := range s.b {
		w := s.hi[i] - s.lo[i]
		if r < w {
			if f >= 0 {
				r = min(int(f*float64(w)), w-1)
			}
			return s.c[s.lo[i]+r] - bi
		}
		r -= w
	}
	panic("stats: pivot out of range")
}

// count fills ltRow and leRow for pivot v and returns their sums. Because
// c[j] − b[i] shrinks as i grows, both per-row counts are non-decreasing
// in i, so one forward pointer each suffices. The pivot is an active
// difference, so everything left of lo[i] is below it and everything from
// hi[i] on is above it: each pointer only walks the active columns.
func (s *selector) count(v float64) (lt, le int) {
	p, q, c := 0, 0, s.c
	for i, bi := range s.b {
		p = max(p, s.lo[i])
		for hi := s.hi[i]; p < hi && c[p]-bi < v; {
			p++
		}
		q = max(q, p)
		for hi := s.hi[i]; q < hi && c[q]-bi <= v; {
			q++
		}
		s.ltRow[i], s.leRow[i] = p, q
		lt += p
		le += q
	}
	return lt, le
}

// quickselect reorders x so that x[r] is its r-th smallest value (0-based)
// with no larger value before it and no smaller one after, and returns it.
func quickselect(x []float64, r int) float64 {
	lo, hi := 0, len(x)-1
	for lo < hi {
		// Median of three as the pivot value, then Hoare partition.
		mid := lo + (hi-lo)/2
		a, b, c := x[lo], x[mid], x[hi]
		p := max(min(a, b), min(max(a, b), c))
		i, j := lo, hi
		for i <= j {
			for x[i] < p {
				i++
			}
			for x[j] > p {
				j--
			}
			if i <= j {
				x[i], x[j] = x[j], x[i]
				i++
				j--
			}
		}
		switch {
		case r <= j:
			hi = j
		case r >= i:
			lo = i
		default:
			return x[r]
		}
	}
	return x[r]
}

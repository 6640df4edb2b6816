package stats

import "slices"

// A selector finds order statistics of the pairwise differences
// c[j] − b[i] of two sorted samples without forming all n·m of them.
// Row i holds c[·] − b[i]: increasing along a row, decreasing down a column.
// Selection is quickselect over the implicit matrix: each round counts the
// differences below a random active pivot with a two-pointer walk in
// O(n+m) and discards, row by row, the part on the wrong side of it.
type selector struct {
	b, c       []float64
	lo, hi     []int // the active columns of row i are [lo[i], hi[i])
	ltRow      []int // per row, the differences < pivot
	leRow      []int // per row, the differences ≤ pivot
	buf        []float64
	rng        uint64 // splitmix64 state; a fixed seed keeps results pure
	gatherSize int
}

func newSelector(b, c []float64) *selector {
	n := len(b)
	ints := make([]int, 4*n)
	g := max(len(b)+len(c), 16)
	return &selector{
		b: b, c: c,
		lo: ints[:n], hi: ints[n : 2*n], ltRow: ints[2*n : 3*n], leRow: ints[3*n:],
		buf: make([]float64, 0, g), rng: 0x9e3779b97f4a7c15, gatherSize: g,
	}
}

// kth returns the k-th smallest difference, 1 ≤ k ≤ n·m.
func (s *selector) kth(k int) float64 {
	m := len(s.c)
	for i := range s.b {
		s.lo[i], s.hi[i] = 0, m
	}
	below, active := 0, len(s.b)*m // differences left of lo, and in [lo, hi)
	for active > s.gatherSize {
		v := s.pivot(active)
		lt, le := s.count(v)
		switch {
		case k <= lt: // the answer is < v
			for i, p := range s.ltRow {
				s.hi[i] = min(s.hi[i], p)
			}
		case k <= le:
			return v
		default: // the answer is > v
			for i, p := range s.leRow {
				s.lo[i] = max(s.lo[i], p)
			}
		}
		below, active = 0, 0
		for i, l := range s.lo {
			below += l
			active += s.hi[i] - l
		}
	}
	s.buf = s.buf[:0]
	for i, bi := range s.b {
		for _, cj := range s.c[s.lo[i]:s.hi[i]] {
			s.buf = append(s.buf, cj-bi)
		}
	}
	slices.Sort(s.buf)
	return s.buf[k-below-1]
}

// pivot returns an active difference chosen uniformly at random.
func (s *selector) pivot(active int) float64 {
	s.rng += 0x9e3779b97f4a7c15
	z := s.rng
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	r := int((z ^ z>>31) % uint64(active))
	for i, bi := range s.b {
		if w := s.hi[i] - s.lo[i]; r < w {
			return s.c[s.lo[i]+r] - bi
		} else {
			r -= w
		}
	}
	panic("stats: pivot out of range")
}

// count fills ltRow and leRow for pivot v and returns their sums. Because
// c[j] − b[i] shrinks as i grows, both per-row counts are non-decreasing
// in i, so one forward pointer each suffices.
func (s *selector) count(v float64) (lt, le int) {
	p, q, m := 0, 0, len(s.c)
	for i, bi := range s.b {
		for p < m && s.c[p]-bi < v {
			p++
		}
		q = max(q, p)
		for q < m && s.c[q]-bi <= v {
			q++
		}
		s.ltRow[i], s.leRow[i] = p, q
		lt += p
		le += q
	}
	return lt, le
}

package changepoint

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
)

// Permutations and permutationAlpha are E-divisive's permutation test
// settings, the defaults of the R package ecp (R = 199, sig.lvl = 0.05).
const (
	permutations     = 199
	permutationAlpha = 0.05
)

// minParallel is the shortest segment whose permutations are judged on
// more than one goroutine: a scan of 128 values takes ~35 µs, a certifier's
// try ~10 µs, well above the cost of handing permutations out.
const minParallel = 128

// permutationSignificant reports whether q, the largest E-divisive
// statistic of seg, is significant: whether at most permutationAlpha of
// the permutations of seg, plus seg itself, reach a largest statistic of
// q or more. The permutations come from a generator seeded with the
// segment's offset, so the result is a pure function of its arguments.
//
// The answer depends only on how many of the 199 permutations reach q,
// not on the order in which they are judged. So every permutation is
// first offered to a certifier (certify.go), which shows cheaply that
// many of them reach q: a flat history (most of whose permutations reach
// q) is answered by it alone, after ~15–50 permutations. Only if that
// does not settle the answer are the others scanned (a real change, or a
// flat history significant by chance: ~190 scans of ~2 ms at 1,000
// points). Both stages stop as soon as the count settles the answer
// either way, and a scan as soon as one of its splits reaches q.
//
// Both stages judge permutations on the calling goroutine and on as many
// helpers as are free (helpers.go): each goroutine draws every
// permutation from its own generator, seeded alike, and judges those it
// claims. The count, and so the answer, is the same as judging them in
// order on one goroutine.
func permutationSignificant(seg []float64, q float64, offset uint64, buf []float64) bool {
	h := 0
	if len(seg) >= minParallel {
		h = takeHelpers(permutations - 1)
		defer giveHelpers(h)
	}
	return permutationTest(seg, q, offset, buf, h)
}

// permutationTest is permutationSignificant on the calling goroutine and
// helpers others.
func permutationTest(seg []float64, q float64, offset uint64, buf []float64, helpers int) bool {
	t := &permTest{seg: seg, q: q, offset: offset, shown: make([]bool, permutations),
		limit: int(permutationAlpha * (permutations + 1)), // p ≤ α ⇔ count ≤ limit
		count: 1, pending: permutations}
	t.run(helpers, buf, false)
	if !t.settled.Load() {
		t.next.Store(0)
		t.run(helpers, buf, true)
	}
	return t.count <= t.limit
}

// A permTest is the state of one permutation test that its goroutines
// share.
type permTest struct {
	seg     []float64
	q       float64
	offset  uint64
	limit   int
	shown   []bool       // shown[r]: the certifier showed permutation r reaches q (each set by one goroutine)
	next    atomic.Int64 // the next permutation to claim
	settled atomic.Bool  // the count settles the answer: stop

	mu      sync.Mutex
	count   int // permutations known to reach q, plus seg itself
	pending int // permutations not known either way
}

// soloCertified is how many permutations the calling goroutine offers
// the certifier alone before helpers join: a flat history's test is
// settled by the certifier after ~15–50, and a helper would draw them all
// again (and sort the ranks) for little.
const soloCertified = 64

// run judges the permutations with the certifier (scan false) or, those
// it did not show, with a scan, on this goroutine and helpers others, and
// returns when all are judged or the answer is settled.
func (t *permTest) run(helpers int, buf []float64, scan bool) {
	w := t.newWorker(buf, scan)
	if !scan {
		w.work(soloCertified)
	}
	var wg sync.WaitGroup
	if !t.settled.Load() {
		for range helpers {
			wg.Go(func() { t.newWorker(nil, scan).work(permutations) })
		}
	}
	w.work(permutations)
	wg.Wait()
}

// A permWorker judges permutations on one goroutine, each drawn from its
// own generator, seeded as every other's.
type permWorker struct {
	t     *permTest
	scan  bool // scan, or offer to the certifier
	perm  []float64
	rank  []int32 // the ranks of perm's values, for the certifier
	c     *certifier
	buf   []float64 // a scan's sums
	rng   *rand.Rand
	swap  func(i, j int)
	drawn int // permutations drawn so far
}

// newWorker returns a worker with buffers of its own; buf, when large
// enough, holds a scan's sums.
func (t *permTest) newWorker(buf []float64, scan bool) *permWorker {
	n := len(t.seg)
	w := &permWorker{t: t, scan: scan, perm: append([]float64(nil), t.seg...), rng: newPermutations(t.offset)}
	w.swap = func(i, j int) { w.perm[i], w.perm[j] = w.perm[j], w.perm[i] }
	if scan {
		if cap(buf) < 4*n+1 {
			buf = make([]float64, 4*n+1)
		}
		w.buf = buf
		return w
	}
	w.rank, w.c = ranks(t.seg), newCertifier(n)
	w.swap = func(i, j int) {
		w.perm[i], w.perm[j] = w.perm[j], w.perm[i]
		w.rank[i], w.rank[j] = w.rank[j], w.rank[i]
	}
	return w
}

// work claims permutations in order and judges them until the answer is
// settled or the first until permutations are claimed (by any worker).
func (w *permWorker) work(until int) {
	t := w.t
	for !t.settled.Load() && t.next.Load() < int64(until) {
		r := int(t.next.Add(1) - 1)
		if r >= permutations {
			return
		}
		if w.scan && t.shown[r] { // counted already
			continue
		}
		for ; w.drawn <= r; w.drawn++ {
			w.rng.Shuffle(len(w.perm), w.swap)
		}
		if w.scan {
			t.record(reaches(w.perm, w.buf, t.q))
		} else if w.c.reaches(w.perm, w.rank, t.q) {
			t.shown[r] = true
			t.record(true)
		}
	}
}

// record counts a permutation judged, and whether it reaches q, and
// settles the answer once the count exceeds the limit or cannot exceed it
// even if every permutation not yet judged reaches q. (The certifier
// judges only the permutations it shows.)
func (t *permTest) record(reached bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pending--
	if reached {
		t.count++
	}
	if t.count > t.limit || t.count+t.pending <= t.limit {
		t.settled.Store(true)
	}
}

func newPermutations(offset uint64) *rand.Rand { return rand.New(rand.NewPCG(0x5eed_c4a9, offset)) }

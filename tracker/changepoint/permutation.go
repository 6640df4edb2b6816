package changepoint

import "math/rand/v2"

// Permutations and permutationAlpha are E-divisive's permutation test
// settings, the defaults of the R package ecp (R = 199, sig.lvl = 0.05).
const (
	permutations     = 199
	permutationAlpha = 0.05
)

// certifyTries is how many permutations the certifier may fail to show
// reaching q before the test falls back to scanning every permutation in
// order. A flat history (the common case, and the slow one: most of its
// permutations reach q) gets its answer from the certifier alone; a real
// change (few permutations reach q) wastes at most this many tries.
const certifyTries = 30

// permutationSignificant reports whether q, the largest E-divisive
// statistic of seg, is significant: whether at most permutationAlpha of
// the permutations of seg, plus seg itself, reach a largest statistic of
// q or more. The permutations come from a generator seeded with the
// segment's offset, so the result is a pure function of its arguments.
//
// The answer depends only on how many of the 199 permutations reach q,
// not on the order in which they are judged. So the permutations are
// first offered to a certifier (certify.go), which shows cheaply that
// many of them reach q; only if it cannot settle the answer are the
// others scanned, in order. The scan stops as soon as the answer is
// settled either way, and a permutation as soon as one of its splits
// reaches q.
func permutationSignificant(seg []float64, q float64, offset uint64, buf []float64) bool {
	limit := int(permutationAlpha * (permutations + 1)) // p ≤ α ⇔ count ≤ limit
	perm := make([]float64, len(seg))
	rank := ranks(seg)
	shown := make([]bool, permutations)
	count := 1 // seg itself
	c := newCertifier(len(seg))
	copy(perm, seg)
	rng := newPermutations(offset)
	for r, failed := 0, 0; r < permutations && failed < certifyTries; r++ {
		rng.Shuffle(len(perm), func(i, j int) {
			perm[i], perm[j] = perm[j], perm[i]
			rank[i], rank[j] = rank[j], rank[i]
		})
		if !c.reaches(perm, rank, q) {
			failed++
			continue
		}
		shown[r] = true
		if count++; count > limit {
			return false
		}
	}
	copy(perm, seg)
	rng = newPermutations(offset)
	for r := 0; r < permutations; r++ {
		if count+permutations-r <= limit {
			return true // even if every remaining permutation reached q
		}
		rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		if shown[r] { // counted already
			continue
		}
		if reaches(perm, buf, q) {
			count++
			if count > limit {
				return false
			}
		}
	}
	return true
}

func newPermutations(offset uint64) *rand.Rand { return rand.New(rand.NewPCG(0x5eed_c4a9, offset)) }

package changepoint

import "math/rand/v2"

// Permutations and permutationAlpha are E-divisive's permutation test
// settings, the defaults of the R package ecp (R = 199, sig.lvl = 0.05).
const (
	permutations     = 199
	permutationAlpha = 0.05
)

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
// q, and whose test was the slowest) is answered by it alone, after ~15–50
// permutations. Only if that does not settle the answer are the others
// scanned, in order (a real change: the certifier's 199 tries cost ~5% of
// the scans). The scan stops as soon as the answer is settled either way,
// and a permutation as soon as one of its splits reaches q.
func permutationSignificant(seg []float64, q float64, offset uint64, buf []float64) bool {
	limit := int(permutationAlpha * (permutations + 1)) // p ≤ α ⇔ count ≤ limit
	perm := make([]float64, len(seg))
	rank := ranks(seg)
	shown := make([]bool, permutations)
	count := 1 // seg itself
	c := newCertifier(len(seg))
	copy(perm, seg)
	rng := newPermutations(offset)
	for r := range permutations {
		rng.Shuffle(len(perm), func(i, j int) {
			perm[i], perm[j] = perm[j], perm[i]
			rank[i], rank[j] = rank[j], rank[i]
		})
		if !c.reaches(perm, rank, q) {
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

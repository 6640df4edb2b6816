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
// The test stops as soon as the answer is settled either way, and a
// permutation as soon as one of its splits reaches q.
func permutationSignificant(seg []float64, q float64, offset uint64, buf []float64) bool {
	limit := int(permutationAlpha * (permutations + 1)) // p ≤ α ⇔ count ≤ limit
	rng := rand.New(rand.NewPCG(0x5eed_c4a9, offset))
	perm := make([]float64, len(seg))
	copy(perm, seg)
	count := 1 // seg itself
	for r := 0; r < permutations; r++ {
		if count+permutations-r <= limit {
			return true // even if every remaining permutation reached q
		}
		rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		if reaches(perm, buf, q) {
			count++
			if count > limit {
				return false
			}
		}
	}
	return true
}

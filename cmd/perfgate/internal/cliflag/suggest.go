package cliflag

import "strings"

// Suggest returns the candidate nearest to s, for a "did you mean" hint: one
// within two edits (a swapped pair of letters counts as one), or one that s
// is a prefix of. It returns "" when none is close enough.
func Suggest(s string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		d := distance(strings.ToLower(s), strings.ToLower(c))
		if max := len(c) / 2; d > max {
			continue // "ab" is within two edits of every short name
		}
		if d < bestD || (d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	if best == "" && len(s) >= 3 {
		for _, c := range candidates {
			if strings.HasPrefix(c, s) && (best == "" || c < best) {
				best = c
			}
		}
	}
	return best
}

// distance is the optimal string alignment distance between a and b:
// insertions, deletions, substitutions and transpositions of adjacent bytes.
func distance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

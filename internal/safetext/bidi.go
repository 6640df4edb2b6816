package safetext

import "strings"

// IsBidi reports whether r is a bidirectional formatting control: the
// embeddings and overrides U+202A–U+202E, the isolates U+2066–U+2069, and
// the marks U+200E, U+200F and U+061C. Shown, they reorder the text
// around them, so that "gemm\u202Eslow" reads as something else (the
// "Trojan Source" attack, CVE-2021-42574); no benchmark name needs them.
func IsBidi(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c
}

// NoBidi returns s with each bidirectional control replaced by "?", so that
// text displays in the order it was written.
func NoBidi(s string) string {
	if !strings.ContainsFunc(s, IsBidi) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if IsBidi(r) {
			return '?'
		}
		return r
	}, s)
}

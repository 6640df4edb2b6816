package model

import (
	"fmt"
	"path"
	"strings"
)

// MatchGlob reports whether glob matches a "/"-separated benchmark name or
// key. The glob is a path.Match pattern matched segment-wise from the left:
// it matches when it matches the whole name or the name's first few
// segments. So "add/*" matches "add/fp32/n=1024" (every add benchmark),
// "elementwise" matches every benchmark of that suite in "suite/name" keys,
// and "gemm/bf16" matches "gemm/bf16/m=4096" but not "gemm/bf16x". A "*"
// never crosses a "/" within a segment. The empty glob matches everything;
// a malformed glob matches nothing (see CheckGlob).
//
// Every place perfgate matches benchmarks by glob (compare overrides and
// ignore lists, .perfgate.yml, trend queries in both stores) uses this rule.
func MatchGlob(glob, name string) bool {
	if glob == "" {
		return true
	}
	want := strings.Count(glob, "/") + 1
	segs := strings.Split(name, "/")
	if len(segs) < want {
		return false
	}
	ok, err := path.Match(glob, strings.Join(segs[:want], "/"))
	return ok && err == nil
}

// CheckGlob returns an error when glob is not a valid pattern.
func CheckGlob(glob string) error {
	if _, err := path.Match(glob, ""); err != nil {
		return fmt.Errorf("bad pattern %q: %w", glob, err)
	}
	return nil
}

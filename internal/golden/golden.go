// Package golden compares what a test rendered with a golden file under the
// test's testdata directory, and rewrites the file instead when the test
// binary runs with -update (go test ./PKG -update). It is the only place
// that declares the -update flag, so every package's golden files are
// checked, reported and rewritten the same way (internal/archdoc fails on
// a package that grows a golden helper of its own).
//
// It imports testing, so only test files may import it.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata instead of comparing with them")

// Update reports whether the test binary runs with -update, for tests that
// rewrite something other than a file under testdata (the diagram in
// docs/architecture.md).
func Update() bool { return *update }

// Check compares got with testdata/name, byte for byte, or writes got
// there under -update (creating the directories name has).
func Check[T string | []byte](t testing.TB, name string, got T) {
	t.Helper()
	CheckFunc(t, name, []byte(got), diffText)
}

// CheckFunc is Check with differ deciding whether got matches want (the
// golden file's bytes): it returns "" when they match, else what differs.
// Charts use it to allow a fraction of their pixels to differ.
func CheckFunc(t testing.TB, name string, got []byte, differ func(got, want []byte) string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if d := differ(got, want); d != "" {
		t.Errorf("%s differs from what the test rendered (go test -update rewrites it): %s", path, d)
	}
}

// diffText names the first line where got and want differ and shows the
// whole of got.
func diffText(got, want []byte) string {
	if bytes.Equal(got, want) {
		return ""
	}
	g, w := bytes.SplitAfter(got, []byte("\n")), bytes.SplitAfter(want, []byte("\n"))
	i := 0
	for i < len(g) && i < len(w) && bytes.Equal(g[i], w[i]) {
		i++
	}
	line := func(ls [][]byte) string {
		if i < len(ls) && len(ls[i]) > 0 { // SplitAfter ends "a\n" with an empty line
			return fmt.Sprintf("%q", ls[i])
		}
		return "(end of file)"
	}
	return fmt.Sprintf("line %d:\n got: %s\nwant: %s\n--- got ---\n%s", i+1, line(g), line(w), got)
}

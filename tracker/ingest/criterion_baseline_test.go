package ingest

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCriterionBaseline reads a saved baseline by name: testdata's
// fib/recursive/20 has base/ (the run before the latest) beside new/.
func TestCriterionBaseline(t *testing.T) {
	dir := filepath.Join("testdata", "criterion", "target", "criterion")
	tests := []struct {
		baseline string
		want     int    // benchmarks
		err      string // substring of the error
	}{
		{"", 2, ""},
		{"base", 1, ""},
		{"main", 0, "want <name>/main/sample.json below it, e.g. target/criterion); baselines present: base, new"},
		{"../new", 0, `criterion baseline "../new" is not a directory name`},
		{"..", 0, "is not a directory name"},
	}
	for _, tt := range tests {
		t.Run(tt.baseline, func(t *testing.T) {
			bs, err := ParseFiles(Criterion, []string{dir}, Options{CriterionBaseline: tt.baseline})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || len(bs) != tt.want {
				t.Fatalf("%d benchmarks, err %v; want %d", len(bs), err, tt.want)
			}
			checkValid(t, bs)
			if tt.baseline == "base" && !strings.HasPrefix(bs[0].Name, "fib/recursive") {
				t.Errorf("base/ holds fib/recursive/20, got %q", bs[0].Name)
			}
		})
	}
}

package check

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

// TestInputBytes: the baseline runs count at the candidates' bytes per sample.
func TestInputBytes(t *testing.T) {
	f := filepath.Join(t.TempDir(), "cand.json")
	if err := os.WriteFile(f, make([]byte, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(n int) *model.Results {
		return &model.Results{Benchmarks: []model.Benchmark{{Samples: make([]float64, n)}, {Error: "failed"}}}
	}
	for _, tc := range []struct {
		name        string
		cands, base []*model.Results
		want        int64
	}{
		{"no baseline", []*model.Results{run(10)}, nil, 1000},
		{"three runs like the candidate", []*model.Results{run(10)}, []*model.Results{run(10), run(10), run(10)}, 4000},
		{"a baseline of twice the samples", []*model.Results{run(10)}, []*model.Results{run(20)}, 3000},
		{"no candidate samples", []*model.Results{run(0)}, []*model.Results{run(20)}, 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := InputBytes([]string{f}, tc.cands, tc.base); got != tc.want {
				t.Errorf("InputBytes = %d, want %d", got, tc.want)
			}
		})
	}
}

// TestExpectedInputBytes: before the baseline is read, each of its sampled
// jobs is taken to be the candidates' size.
func TestExpectedInputBytes(t *testing.T) {
	f := filepath.Join(t.TempDir(), "cand.json")
	if err := os.WriteFile(f, make([]byte, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := ExpectedInputBytes([]string{f}, 3); got != 4000 {
		t.Errorf("ExpectedInputBytes = %d, want 4000", got)
	}
}

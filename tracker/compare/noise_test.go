package compare

import (
	"errors"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

// TestNoiseWarning: a candidate run whose samples scatter far more than
// the baseline runs' is flagged, with a CPU-time hint for go test
// benchmarks (issue 11, defect 6).
func TestNoiseWarning(t *testing.T) {
	quiet := []float64{100, 101, 99, 100, 102, 98, 100, 101, 99, 100} // CV 1.2%
	busy := []float64{100, 140, 90, 170, 110, 95, 160, 100, 130, 180} // CV 24%
	mk := func(id, branch, name, unit string, samples []float64) *model.Results {
		return &model.Results{Schema: model.Schema, Run: model.Run{ID: id, Branch: branch},
			Benchmarks: []model.Benchmark{{Suite: "gotest", Name: name, Unit: unit, Better: model.Lower, Samples: samples}}}
	}
	tests := []struct {
		name, bench, unit string
		cand              []float64
		want, cpu         bool
	}{
		{"busy go test run", "BenchmarkChecksum", "ns", busy, true, true},
		{"busy GPU kernel", "add/n=1M", "us", busy, true, false},
		{"quiet run", "BenchmarkChecksum", "ns", quiet, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := []*model.Results{mk("b1", "main", tt.bench, tt.unit, quiet), mk("b2", "main", tt.bench, tt.unit, quiet)}
			c, err := Compare(base, []*model.Results{mk("c1", "pr", tt.bench, tt.unit, tt.cand)}, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			var w *NoiseWarning
			got := len(c.Results[0].Warnings) == 1 && errors.As(c.Results[0].Warnings[0], &w)
			if got != tt.want || (got && w.CPUTime != tt.cpu) {
				t.Fatalf("warnings %v; want a noise warning %v (CPU-time hint %v)", c.Results[0].Warnings, tt.want, tt.cpu)
			}
			if got && (w.CandidateCV < 0.2 || w.BaselineCV > 0.02) {
				t.Errorf("CVs %.3f vs %.3f; want about 0.24 vs 0.012", w.CandidateCV, w.BaselineCV)
			}
		})
	}
}

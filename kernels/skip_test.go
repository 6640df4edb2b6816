package kernels

import (
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

func TestSkipUnchanged(t *testing.T) {
	base := map[string]string{"elementwise/add/n=1M": "9f2c0d1e2a3b4c5d", "gemm/cublas": ""}
	tests := []struct {
		name, bench, hash string
		skip              bool
	}{
		{"same hash", "add/n=1M", "9f2c0d1e2a3b4c5d", true},
		{"kernel changed", "add/n=1M", "aaaa0d1e2a3b4c5d", false},
		{"not in the baseline", "gelu/n=1M", "9f2c0d1e2a3b4c5d", false},
		{"no hash here (host code)", "add/n=1M", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, ok := SkipUnchanged("elementwise", tt.bench, nil, tt.hash, base)
			if ok != tt.skip {
				t.Fatalf("skipped %v, want %v", ok, tt.skip)
			}
			if !ok {
				return
			}
			if b.Info[model.InfoSkipped] != "kernel unchanged since the baseline (PTX sha256 9f2c0d1e2a3b…)" || b.Info["ptx_sha256"] != tt.hash || len(b.Samples) != 0 {
				t.Errorf("skipped benchmark %+v", b)
			}
			r := &model.Results{Schema: model.Schema, Run: model.Run{ID: "r", Repo: "o/r", Commit: "0123456789abcdef0123456789abcdef01234567", Branch: "b", Event: "local", Testbed: "t"}, Benchmarks: []model.Benchmark{b}}
			if err := r.Validate(); err != nil {
				t.Errorf("a skipped benchmark must be a valid results-v1 benchmark: %v", err)
			}
		})
	}
}

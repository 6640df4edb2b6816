package compare

import (
	"slices"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

func TestSpeedupCategory(t *testing.T) {
	for _, tt := range []struct {
		s    float64
		want string
	}{{1.3, "excellent"}, {0.8, "excellent"}, {0.79, "good"}, {0.5, "good"}, {0.35, "fair"}, {0.2, "fair"}, {0.19, "needs work"}} {
		if got := SpeedupCategory(tt.s); got != tt.want {
			t.Errorf("SpeedupCategory(%v) = %q, want %q", tt.s, got, tt.want)
		}
	}
}

func TestReferences(t *testing.T) {
	run := func(s float64) *model.Results {
		return &model.Results{Benchmarks: []model.Benchmark{
			{Suite: "gemm", Name: "tiled/x/mode=cold", Info: map[string]string{"reference": "gemm/cublas/x/mode=cold",
				"reference_torch": "gemm/torch.matmul/x/mode=cold"},
				Metrics: map[string]float64{"speedup_vs_cublas": s, "speedup_vs_torch": 2 * s, "median_us": 10}},
			{Suite: "gemm", Name: "cublas/x/mode=cold", Info: map[string]string{"reference_torch": "gemm/torch.matmul/x/mode=cold"},
				Metrics: map[string]float64{"median_us": 5, "speedup_vs_torch": 1.1}},
			{Suite: "gemm", Name: "cublas/z/mode=cold", Metrics: map[string]float64{"speedup_vs_torch": 1.1}}, // names no reference
			{Suite: "gemm", Name: "tiled/y/mode=cold", Error: "wrong result", Info: map[string]string{"reference": "gemm/cublas/y/mode=cold"},
				Metrics: map[string]float64{"speedup_vs_cublas": 1}},
		}}
	}
	got := references([]*model.Results{run(0.3), run(0.5), run(0.4)})
	want := []Reference{
		{Suite: "gemm", Name: "cublas/x/mode=cold", Reference: "gemm/torch.matmul/x/mode=cold", Metric: "speedup_vs_torch", Speedup: 1.1, Category: "excellent"},
		{Suite: "gemm", Name: "tiled/x/mode=cold", Reference: "gemm/cublas/x/mode=cold", Metric: "speedup_vs_cublas", Speedup: 0.4, Category: "fair"},
		{Suite: "gemm", Name: "tiled/x/mode=cold", Reference: "gemm/torch.matmul/x/mode=cold", Metric: "speedup_vs_torch", Speedup: 0.8, Category: "excellent"},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("references = %+v,\nwant %+v (the median of three runs, each metric's own reference; errors and benchmarks without a reference left out)", got, want)
	}
}

package suite

import (
	"testing"

	"github.com/perfgate/perfgate/kernels/measure"
	"github.com/perfgate/perfgate/tracker/model"
)

func TestSizeLabel(t *testing.T) {
	for _, tt := range []struct {
		n    int64
		want string
	}{{256, "256"}, {1024, "1K"}, {4096, "4K"}, {1 << 20, "1M"}, {256 << 20, "256M"}, {1 << 30, "1G"}, {1500, "1500"}} {
		if got := SizeLabel(tt.n); got != tt.want {
			t.Errorf("SizeLabel(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestToBenchmark(t *testing.T) {
	c := Case{Suite: "elementwise", Op: "add", DType: "fp32", N: 1 << 20, Params: []Param{{K: "dtype", V: "fp32"}, {K: "n", V: "1M"}}}
	m := measure.Measurement{Mode: measure.Cold, Samples: []float64{10, 10, 11, 50, 9}, Clocks: []float64{1980, 1980, 1980, 1500, 1980},
		Stop: "rel-std 0.4% <= 0.50%", BatchN: 1, Throttle: []string{"sw_power_cap"}}
	b := ToBenchmark(c, m, WorkMeta{Bytes: 12 << 20, CeilingGBps: 3000, PTXHash: "abc"})
	if b.Name != "add/dtype=fp32/n=1M/mode=cold" || b.Params["n"] != "1048576" || b.Params["mode"] != "cold" || b.Unit != "us" || b.Better != model.Lower {
		t.Errorf("identity: %+v", b)
	}
	if len(b.Samples) != 4 || b.Metrics["clock_drops"] != 1 || b.Info["clock_flag"] == "" {
		t.Errorf("the 1500 MHz sample must be dropped and flagged: samples %v metrics %v info %v", b.Samples, b.Metrics, b.Info)
	}
	// median of 10, 10, 11, 9 is 10 µs: 12 MiB in 10 µs.
	wantGBps := float64(12<<20) / 10e-6 / 1e9
	if b.Metrics["median_us"] != 10 || b.Metrics["gbps"] != wantGBps || b.Metrics["pct_of_copy"] != 100*wantGBps/3000 {
		t.Errorf("metrics %v, want median 10, gbps %v", b.Metrics, wantGBps)
	}
	if b.Info["ptx_sha256"] != "abc" || b.Info["clock_event_reasons"] != "sw_power_cap" || b.Info["stop"] == "" {
		t.Errorf("info %v", b.Info)
	}
}

func TestAddRefSpeedups(t *testing.T) {
	bs := []model.Benchmark{
		{Suite: "gemm", Name: "cublas/x/mode=cold", Metrics: map[string]float64{"median_us": 100}, Info: map[string]string{}},
		{Suite: "gemm", Name: "tiled/x/mode=cold", Metrics: map[string]float64{"median_us": 200}, Info: map[string]string{InfoReference: "gemm/cublas/x/mode=cold"}},
		{Suite: "gemm", Name: "tiled/y/mode=cold", Metrics: map[string]float64{"median_us": 200}, Info: map[string]string{InfoReference: "gemm/cublas/y/mode=cold"}},
	}
	AddRefSpeedups(bs)
	if got := bs[1].Metrics["speedup_vs_cublas"]; got != 0.5 {
		t.Errorf("speedup_vs_cublas = %v, want 0.5", got)
	}
	if _, ok := bs[2].Metrics["speedup_vs_cublas"]; ok {
		t.Error("a benchmark whose reference did not run got a speedup")
	}
	if _, ok := bs[0].Metrics["speedup_vs_cublas"]; ok {
		t.Error("the reference itself got a speedup")
	}
}

package torchref

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/tracker/model"
)

func ciNames() ([]string, map[string][]string) {
	names := map[string][]string{}
	var suites []string
	for _, s := range kernels.ListFor(kernels.Options{Size: kernels.SizeCI}) {
		suites = append(suites, s.Name)
		names[s.Name] = s.Benchmarks
	}
	return suites, names
}

func TestPlan(t *testing.T) {
	suites, names := ciNames()
	b := Budget{Size: kernels.SizeCI, MaxTime: 5e9, Pace: "off"}
	files, err := Plan(suites, names, "/h/perfgate_harness/torchref.py", false, b)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := files["memory"]; ok {
		t.Error("memory has references")
	}
	for suite, f := range files {
		for _, s := range f.Specs {
			if s.Suite != suite || s.Module != "/h/perfgate_harness/torchref.py" || s.Size != "ci" || s.MaxTimeNS != 5e9 || s.Pace != "off" {
				t.Errorf("%s: spec %+v", suite, s)
			}
			if !slices.Equal(s.Modes, []string{kernels.ModeCold, kernels.ModeBatch}) {
				t.Errorf("%s %s: modes %v", suite, s.Name, s.Modes)
			}
		}
		// every built-in benchmark's arms are measured, each once
		var want []string
		for _, n := range names[suite] {
			refs, mode, _ := For(suite, n)
			for _, r := range refs {
				if name := r.Name(mode); !r.Arm.FlashAttn && !slices.Contains(want, name) {
					want = append(want, name)
				}
			}
		}
		got := f.Names()
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: measures %q, want %q", suite, got, want)
		}
	}
	ew := files["elementwise"].Specs
	if len(ew) != 7 || ew[0].Name != "torch.add" || ew[0].Args["op"] != "add" || !ew[0].Graph || len(ew[0].Cases) != 6 ||
		ew[0].Check == nil || ew[0].Check.Function != "elementwise_expected" {
		t.Errorf("elementwise: %d specs, the first %+v", len(ew), ew[0])
	}
	mb := files["microbatch"].Specs
	if len(mb) != 3 {
		t.Fatalf("microbatch: %d specs", len(mb))
	}
	for i, launches := range []int{10000, 1, 10000} {
		s := mb[i]
		if s.Graph || len(s.Cases) != 1 || s.Cases[0].Ops != 10000 || s.Cases[0].Launches != launches {
			t.Errorf("microbatch %s: graph %v, cases %+v", s.Name, s.Graph, s.Cases)
		}
	}
	if at := files["attention"].Specs; len(at) != 1 || at[0].Name != "torch.sdpa" {
		t.Errorf("attention without flash_attn: %+v", at)
	}
	withFA, _ := Plan(suites, names, "m.py", true, b)
	if at := withFA["attention"].Specs; len(at) != 2 || at[1].Name != "torch.flash_attn2" {
		t.Errorf("attention with flash_attn: %+v", at)
	}

	// the keys runspec.py reads, and no reference (which it would time)
	data, _ := json.Marshal(files["microbatch"])
	for _, k := range []string{`"specs":[`, `"args":{"variant":"eager"}`, `"check":{"module":"/h/perfgate_harness/torchref.py","function":"microbatch_expected"}`,
		`"graph":false`, `"ops":10000`, `"launches":10000`, `"params":{"n":"4K","ops":"10000"}`, `"max_time_ns":5000000000`} {
		if !strings.Contains(string(data), k) {
			t.Errorf("the spec lacks %s: %s", k, data)
		}
	}
	if strings.Contains(string(data), "reference") {
		t.Errorf("the spec has a reference: %s", data)
	}
}

func bench(suite, name string, median float64, metrics map[string]float64) model.Benchmark {
	m := map[string]float64{"median_us": median}
	for k, v := range metrics {
		m[k] = v
	}
	return model.Benchmark{Suite: suite, Name: name, Unit: "us", Better: model.Lower, Samples: []float64{median}, Metrics: m, Info: map[string]string{}}
}

func TestMerge(t *testing.T) {
	bs := []model.Benchmark{
		bench("elementwise", "add/dtype=fp32/n=16M/mode=cold", 2, map[string]float64{"gbps": 300}),
		bench("elementwise", "add/dtype=fp32/n=16M/mode=batch", 4, nil),
		bench("elementwise", "mul/dtype=fp32/n=16M/mode=cold", 1, nil),
		bench("memory", "copy_float4/bytes=128M/mode=cold", 1, nil),
		bench("gemm", "tiled/dtype=fp16/shape=1024x1024x1024/mode=cold", 10, map[string]float64{"speedup_vs_cublas": 0.5}),
	}
	bs[4].Info["reference"] = "gemm/cublas/dtype=fp16/shape=1024x1024x1024/mode=cold"
	mulErr := bench("elementwise", "torch.mul/dtype=fp32/n=16M/mode=cold", 0, nil)
	mulErr.Error, mulErr.Samples = "wrong result", []float64{}
	arms := []model.Benchmark{
		bench("elementwise", "torch.add/dtype=fp32/n=16M/mode=cold", 3, nil),
		bench("elementwise", "torch.add/dtype=fp32/n=16M/mode=batch", 2, nil),
		mulErr,
		bench("gemm", "torch.matmul/dtype=fp16/shape=1024x1024x1024/mode=cold", 8, map[string]float64{"tflops": 250}),
	}
	got, err := Merge(bs, arms)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(bs)+len(arms) || got[len(bs)].Name != arms[0].Name {
		t.Fatalf("merged %d benchmarks", len(got))
	}
	for _, tc := range []struct {
		i      int
		metric string
		want   float64
		info   string
	}{
		{0, "speedup_vs_torch", 1.5, "elementwise/torch.add/dtype=fp32/n=16M/mode=cold"},
		{1, "speedup_vs_torch", 0.5, "elementwise/torch.add/dtype=fp32/n=16M/mode=batch"},
		{4, "speedup_vs_torch", 0.8, "gemm/torch.matmul/dtype=fp16/shape=1024x1024x1024/mode=cold"},
	} {
		b := got[tc.i]
		if v := b.Metrics[tc.metric]; v != tc.want || b.Info["reference_torch"] != tc.info {
			t.Errorf("%s: %s = %v, info %q; want %v, %q", b.Name, tc.metric, v, b.Info["reference_torch"], tc.want, tc.info)
		}
	}
	for _, i := range []int{2, 3} { // an arm in error, a suite without references
		if _, ok := got[i].Metrics["speedup_vs_torch"]; ok {
			t.Errorf("%s has a speedup over PyTorch", got[i].Name)
		}
	}
	if got[4].Info["reference"] != bs[4].Info["reference"] || got[4].Metrics["speedup_vs_cublas"] != 0.5 {
		t.Errorf("the in-suite reference changed: %v %v", got[4].Info, got[4].Metrics)
	}
	// the arm's GB/s from the bytes kernels counted: 300 GB/s at 2 µs is 200 at 3 µs; TFLOP/s of its own kept
	if g := got[len(bs)].Metrics["gbps"]; g != 200 {
		t.Errorf("torch.add cold: %v GB/s, want 200", g)
	}
	if f := got[len(bs)+3].Metrics["tflops"]; f != 250 {
		t.Errorf("torch.matmul: %v TFLOP/s, want its own 250", f)
	}
	if _, ok := bs[0].Metrics["speedup_vs_torch"]; ok {
		t.Error("Merge changed its input")
	}
}

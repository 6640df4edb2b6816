package kernels

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/kernels/measure"
	"github.com/perfgate/perfgate/kernels/suite"
	"github.com/perfgate/perfgate/tracker/model"
)

func TestListCoversTheIssue(t *testing.T) {
	all := map[string][]string{}
	for _, s := range ListFor(Options{Size: SizeLarge}) {
		all[s.Name] = s.Benchmarks
	}
	want := map[string][]string{
		"memory":      {"memcpy_dtod/bytes=1G/mode=cold", "copy_float4/bytes=1G/mode=batch"},
		"elementwise": {"add/dtype=fp32/n=256/mode=cold", "swish/dtype=bf16/n=256M/mode=batch", "gelu/dtype=fp16/n=64M/mode=cold", "div/dtype=fp32/n=1K/mode=batch"},
		"microbatch":  {"launch_per_op/n=256/ops=10000/mode=cold", "cuda_graph/n=2K/ops=10000/mode=batch", "persistent/n=16K/ops=10000/mode=cold"},
		"mixedops":    {"unfused/n=4K/iters=1000/mode=cold", "fused/n=16M/iters=1000/mode=batch"},
	}
	for suite, names := range want {
		for _, n := range names {
			if !contains(all[suite], n) {
				t.Errorf("%s lacks %s", suite, n)
			}
		}
	}
	if got := len(all["elementwise"]); got != 7*3*11*2 {
		t.Errorf("elementwise large has %d benchmarks, want 7 ops × 3 dtypes × 11 sizes × 2 modes", got)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func TestSelectCases(t *testing.T) {
	ew, _ := findSuite("elementwise")
	tests := []struct {
		name string
		o    Options
		want int
	}{
		{"default size medium, all dtypes", Options{}, 7 * 3 * 6 * 2},
		{"small", Options{Size: SizeSmall}, 7 * 3 * 3 * 2},
		{"ci: one launch-bound and one bandwidth-bound size", Options{Size: SizeCI}, 7 * 3 * 2 * 2},
		{"one dtype", Options{DTypes: []string{"bf16"}}, 7 * 6 * 2},
		{"filter on suite/name, mode included", Options{Filter: regexp.MustCompile(`^elementwise/add/dtype=fp32/.*mode=cold$`)}, 6},
		{"filter that matches nothing", Options{Filter: regexp.MustCompile("nope")}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := len(suite.Select(ew.Def, tt.o)); got != tt.want {
				t.Errorf("got %d, want %d", got, tt.want)
			}
		})
	}
	mb, _ := findSuite("microbatch")
	if got := suite.Select(mb.Def, Options{DTypes: []string{"fp16"}}); len(got) != 0 {
		t.Errorf("microbatch is fp32 only, got %d with --dtype fp16", len(got))
	}
}

func TestValidateOptions(t *testing.T) {
	tests := []struct {
		o      Options
		option string
	}{
		{Options{Size: "huge"}, "size"},
		{Options{DTypes: []string{"fp32", "int4"}}, "dtype"},
		{Options{MaxTime: -time.Second}, "max-time"},
		{Options{Size: SizeLarge, DTypes: []string{"fp16"}}, ""},
	}
	for _, tt := range tests {
		err := ValidateOptions(tt.o)
		oe, _ := err.(*OptionError)
		if (tt.option == "" && err != nil) || (tt.option != "" && (oe == nil || oe.Option != tt.option)) {
			t.Errorf("ValidateOptions(%+v) = %v, want an error on %q", tt.o, err, tt.option)
		}
	}
}

func TestSpeedupsAndCeiling(t *testing.T) {
	bs := []model.Benchmark{
		{Suite: "microbatch", Name: "launch_per_op/n=256/mode=cold", Metrics: map[string]float64{"median_us": 4}},
		{Suite: "microbatch", Name: "persistent/n=256/mode=cold", Metrics: map[string]float64{"median_us": 0.5}},
		{Suite: "microbatch", Name: "persistent/n=1K/mode=cold", Metrics: map[string]float64{"median_us": 0.5}},
	}
	finishSuite("microbatch", bs)
	if got := bs[1].Metrics["speedup_vs_launch_per_op"]; got != 8 {
		t.Errorf("speedup %v, want 8", got)
	}
	if _, ok := bs[2].Metrics["speedup_vs_launch_per_op"]; ok {
		t.Error("speedup without a baseline of the same size")
	}
	mem := []model.Benchmark{
		{Info: map[string]string{"mode": "cold"}, Metrics: map[string]float64{"gbps": 3000}},
		{Info: map[string]string{"mode": "cold"}, Metrics: map[string]float64{"gbps": 2900}},
		{Info: map[string]string{"mode": "batch"}, Metrics: map[string]float64{"gbps": 3100}},
	}
	if got := ceilingOf(mem); got != 3000 {
		t.Errorf("ceiling %v, want the best cold median 3000", got)
	}
}

func TestPTXCache(t *testing.T) {
	base := ptxKey("src", "compute_90", "12.8", []string{"-DA=1"})
	for name, k := range map[string]string{
		"source":  ptxKey("src2", "compute_90", "12.8", []string{"-DA=1"}),
		"arch":    ptxKey("src", "compute_80", "12.8", []string{"-DA=1"}),
		"nvrtc":   ptxKey("src", "compute_90", "13.0", []string{"-DA=1"}),
		"options": ptxKey("src", "compute_90", "12.8", []string{"-DA=2"}),
		"split":   ptxKey("sr", "ccompute_90", "12.8", []string{"-DA=1"}),
	} {
		if k == base {
			t.Errorf("changing the %s does not change the key", name)
		}
	}
	c := ptxCache{dir: t.TempDir()}
	if _, ok, err := c.get(base); ok || err != nil {
		t.Fatalf("empty cache: ok %v err %v", ok, err)
	}
	if err := c.put(base, ".version 8.0"); err != nil {
		t.Fatal(err)
	}
	got, ok, err := c.get(base)
	if !ok || err != nil || got != ".version 8.0" {
		t.Fatalf("get after put: %q %v %v", got, ok, err)
	}
	left, _ := filepath.Glob(filepath.Join(c.dir, "ptx", "*.tmp"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if !strings.HasSuffix(cacheDir(""), "perfgate") || cacheDir("/x") != "/x" {
		t.Errorf("cacheDir: %q %q", cacheDir(""), cacheDir("/x"))
	}
}

func TestRowwiseAndGemmCatalog(t *testing.T) {
	all := map[string][]string{}
	for _, s := range ListFor(Options{}) {
		all[s.Name] = s.Benchmarks
	}
	for suite, names := range map[string][]string{
		"rowwise": {"layernorm/dtype=fp32/shape=16x2048x4096/mode=cold", "softmax/dtype=bf16/shape=16x2048x4096/mode=batch",
			"rmsnorm/dtype=fp16/shape=4096x8192/mode=cold", "dropout/dtype=bf16/shape=16x2048x4096/keep=0.9/mode=cold",
			"mse/dtype=fp32/shape=16x512x768/mode=cold", "cross_entropy/dtype=bf16/shape=8192x32000/mode=cold"},
		"gemm": {"cublas/dtype=fp32/tf32=off/shape=4096x4096x4096/mode=cold", "cublas/dtype=fp32/tf32=on/shape=4096x11008x4096/mode=cold",
			"cublas/dtype=bf16/shape=2048x2048x2048/mode=batch", "tiled/dtype=fp16/shape=4096x4096x4096/mode=cold"},
	} {
		for _, n := range names {
			if !contains(all[suite], n) {
				t.Errorf("%s lacks %s", suite, n)
			}
		}
	}
	if contains(all["gemm"], "tiled/dtype=fp32/tf32=on/shape=1024x1024x1024/mode=cold") {
		t.Error("the tiled fp32 kernel has no TF32 variant")
	}
	for _, tt := range []struct {
		size  string
		suite string
		want  int
	}{
		{SizeSmall, "rowwise", 6 * 3 * 2 * 2},
		{SizeMedium, "rowwise", (6*3*5 + 3) * 2},
		{SizeLarge, "rowwise", (6*3*(4*4*10+6) + 3*2) * 2},
		{SizeMedium, "gemm", (4 + 3) * 4 * 2},
	} {
		def, _ := findSuite(tt.suite)
		if got := len(suite.Select(def.Def, Options{Size: tt.size})); got != tt.want {
			t.Errorf("%s %s: %d benchmarks, want %d", tt.suite, tt.size, got, tt.want)
		}
	}
}

func TestRefName(t *testing.T) {
	cs := gemmCases(SizeSmall, []string{"fp16"})
	for _, c := range cs {
		want := ""
		if c.Op == "tiled" {
			want = "cublas/dtype=fp16/shape=" + gemmShape{c.Rows, c.Dim, c.K}.label() + "/mode=batch"
		}
		if got := c.RefName(measure.Batch); got != want {
			t.Errorf("%s: RefName = %q, want %q", c.Name(measure.Batch), got, want)
		}
	}
}

func TestUserSpeedupVs(t *testing.T) {
	k := UserKernel{Suite: "saxpy", Name: "saxpy", SpeedupVs: map[string]string{"unroll": "1"}}
	for _, tt := range []struct {
		params map[string]string
		want   string
	}{
		{map[string]string{"n": "1M", "unroll": "4"}, "saxpy/n=1M/unroll=1/mode=cold"},
		{map[string]string{"n": "1M", "unroll": "1"}, ""}, // the reference itself
	} {
		if got := userCase(k, UserCase{Params: tt.params}).RefName(measure.Cold); got != tt.want {
			t.Errorf("%v: RefName = %q, want %q", tt.params, got, tt.want)
		}
	}
}

// TestCISize pins the ci preset's size: every default suite, few benchmarks.
func TestCISize(t *testing.T) {
	want := map[string]int{"memory": 2 * 2, "elementwise": 7 * 3 * 2 * 2, "microbatch": 3 * 2, "mixedops": 2 * 2,
		"attention": 2 * 2 * 2 * 2, "decode": 2 * 3 * 2}
	if got := DefaultSuites(); len(got) != len(want) {
		t.Errorf("default suites %q, want %d", got, len(want))
	}
	total := 0
	for _, s := range ListFor(Options{Size: SizeCI}) {
		if !slices.Contains(DefaultSuites(), s.Name) {
			continue
		}
		if len(s.Benchmarks) != want[s.Name] {
			t.Errorf("%s at size ci: %d benchmarks, want %d", s.Name, len(s.Benchmarks), want[s.Name])
		}
		total += len(s.Benchmarks)
	}
	if total != 126 {
		t.Errorf("size ci: %d benchmarks in the default suites, want 126", total)
	}
	for _, s := range ListFor(Options{Size: SizeCI, Filter: regexp.MustCompile("^memory/")}) {
		if s.Name == "memory" && s.Benchmarks[0] != "memcpy_dtod/bytes=128M/mode=cold" {
			t.Errorf("memory at size ci: %q", s.Benchmarks[0])
		}
	}
}

// TestCountHostAndGPU: CountHostAndGPU counts the host and GPU benchmarks of the
// named suites as the list has them.
func TestCountHostAndGPU(t *testing.T) {
	var host, gpu int
	for _, s := range ListFor(Options{}) {
		for _, b := range s.Benchmarks {
			switch {
			case s.Name != "cmdpath":
			case strings.HasSuffix(b, "/mode=host"):
				host++
			default:
				gpu++
			}
		}
	}
	if host == 0 || gpu == 0 {
		t.Fatalf("cmdpath lists %d host and %d GPU benchmarks", host, gpu)
	}
	h, g := CountHostAndGPU([]string{"cmdpath", "elementwise"}, Options{Filter: regexp.MustCompile("^cmdpath/")})
	if h != host || g != gpu {
		t.Errorf("CountHostAndGPU = %d host, %d gpu; the list has %d and %d", h, g, host, gpu)
	}
	if h, g := CountHostAndGPU([]string{"elementwise", "nosuch"}, Options{Size: SizeCI}); h != 0 || g != 7*3*2*2 {
		t.Errorf("elementwise at size ci: CountHostAndGPU = %d host, %d gpu; want 0, 84", h, g)
	}
}

// TestEverySuiteSaysHowItRuns: each built-in suite is registered with one
// way of running on the GPU, a setup per case or a run of the whole suite.
func TestEverySuiteSaysHowItRuns(t *testing.T) {
	for _, s := range suites {
		if (s.prepare == nil) == (s.run == nil) {
			t.Errorf("suite %s: prepare set %v, run set %v; want exactly one", s.Name, s.prepare != nil, s.run != nil)
		}
	}
}

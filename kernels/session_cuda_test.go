//go:build cuda

package kernels

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

// openSession opens a session, skipping without a GPU unless
// PERFGATE_REQUIRE_GPU=1 says the GPU must be there.
func openSession(t *testing.T) *Session {
	t.Helper()
	s, err := Open(context.Background())
	if err != nil {
		if os.Getenv("PERFGATE_REQUIRE_GPU") == "1" {
			t.Fatalf("PERFGATE_REQUIRE_GPU=1 but no GPU session: %v", err)
		}
		t.Skipf("no GPU: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestEnvFingerprint(t *testing.T) {
	s := openSession(t)
	env := s.Env()
	for _, k := range []string{model.EnvGPU, model.EnvDriver, model.EnvCUDA, model.EnvNVRTC, model.EnvCUDAHeader,
		EnvGPUUUID, EnvSMCount, EnvL2Bytes, EnvCompute, EnvNVRTCOptions, EnvCPU, EnvGo} {
		if env[k] == "" {
			t.Errorf("env[%q] is empty; env = %v", k, env)
		}
	}
	if env[EnvNVMLAvailable] != "yes" {
		t.Errorf("NVML not available on the GPU runner: env = %v", env)
	}
}

// TestSuitesSmoke runs a slice of every built-in suite with fast rules and
// checks each benchmark passed its correctness check and was timed.
func TestSuitesSmoke(t *testing.T) {
	s := openSession(t)
	filters := map[string]string{
		"memory":      ".",
		"elementwise": "(add|gelu|div)/dtype=(fp32|fp16|bf16)/n=(4K|16M)/",
		"microbatch":  "n=256/",
		"mixedops":    ".",
		"attention":   "b=8/h=4/",
		"decode":      "dtype=fp16/.*l=128/",
		"rowwise":     "(layernorm|softmax|cross_entropy)/dtype=(fp32|bf16)/shape=16x256x768/",
		"gemm":        "dtype=fp16/shape=1024x1024x1024/",
	}
	for _, suite := range SuiteNames() {
		if def, _ := findSuite(suite); def.run != nil {
			continue // cmdpath and sharing: TestCmdpathGPU and TestSharingGPU
		}
		t.Run(suite, func(t *testing.T) {
			o := Options{Fast: true, Size: SizeSmall, Filter: regexp.MustCompile(filters[suite]), CacheDir: t.TempDir(),
				Progress: func(l string) { t.Log(l) }}
			bs, err := s.RunSuite(context.Background(), suite, o)
			if err != nil {
				t.Fatal(err)
			}
			if len(bs) == 0 {
				t.Fatal("no benchmarks ran")
			}
			for _, b := range bs {
				if b.Error != "" {
					t.Errorf("%s: %s", b.Name, b.Error)
					continue
				}
				if len(b.Samples) < 10 || b.Metrics["median_us"] <= 0 || b.Info["stop"] == "" || b.Info["timing"] == "" {
					t.Errorf("%s: samples %d, metrics %v, info %v", b.Name, len(b.Samples), b.Metrics, b.Info)
				}
				if b.Info["ptx_sha256"] == "" && !strings.HasPrefix(b.Name, "memcpy_dtod") && !strings.HasPrefix(b.Name, "cublas/") { // driver copies and cuBLAS have no kernel of ours
					t.Errorf("%s: no ptx_sha256 in %v", b.Name, b.Info)
				}
				if (suite == "microbatch" && !strings.HasPrefix(b.Name, "launch_per_op")) && b.Metrics["speedup_vs_launch_per_op"] <= 0 {
					t.Errorf("%s: no speedup metric: %v", b.Name, b.Metrics)
				}
				if suite == "gemm" && (b.Metrics["tflops"] <= 0 || b.Metrics["pct_of_peak"] <= 0 || b.Metrics["peak_mem_mb"] <= 0) {
					t.Errorf("%s: no tflops, pct_of_peak or peak_mem_mb: %v", b.Name, b.Metrics)
				}
				if suite == "gemm" && strings.HasPrefix(b.Name, "tiled/") && b.Metrics["speedup_vs_cublas"] <= 0 {
					t.Errorf("%s: no speedup_vs_cublas: %v", b.Name, b.Metrics)
				}
				if (suite == "elementwise" || suite == "rowwise") && b.Metrics["pct_of_copy"] <= 0 {
					t.Errorf("%s: no pct_of_copy: %v", b.Name, b.Metrics)
				}
			}
		})
	}
}

const saxpy = `
extern "C" __global__ void saxpy(const float* x, float* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void saxpy_wrong(const float* x, float* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && i != 1000) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void saxpy_fault(const float* x, float* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) ((float*)0x10)[i] = 1.0f;
}
`

func saxpyKernel(entry string, n int64) UserKernel {
	return UserKernel{Suite: "user", Name: entry, File: "saxpy.cu", Source: saxpy, Entry: entry,
		Cases: []UserCase{{
			Params:  map[string]string{"n": "1M"},
			Buffers: []UserBuffer{{Name: "x", DType: "fp32", Len: n, Init: "random"}, {Name: "y", DType: "fp32", Len: n, Init: "random", Output: true}},
			Args:    []UserArg{{Buffer: 0}, {Buffer: 1}, {Buffer: -1, DType: "fp32", Value: 2.5}, {Buffer: -1, DType: "i32", Value: float64(n)}},
			Grid:    [3]uint32{uint32((n + 255) / 256), 1, 1}, Block: [3]uint32{256, 1, 1},
			Bytes: float64(12 * n), FLOPs: float64(2 * n),
			Reference: &UserReference{Entry: "saxpy"},
		}}}
}

func TestUserKernel(t *testing.T) {
	s := openSession(t)
	tests := []struct {
		entry   string
		wantErr string
	}{
		{"saxpy", ""},
		{"saxpy_wrong", "differs from the reference"},
	}
	for _, tt := range tests {
		t.Run(tt.entry, func(t *testing.T) {
			bs, err := s.RunUserKernel(context.Background(), saxpyKernel(tt.entry, 1<<20), Options{Fast: true, CacheDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			if len(bs) != 2 {
				t.Fatalf("got %d benchmarks, want cold and batch", len(bs))
			}
			for _, b := range bs {
				if tt.wantErr == "" && (b.Error != "" || b.Metrics["gbps"] <= 0 || b.Metrics["tflops"] <= 0) {
					t.Errorf("%s: error %q metrics %v", b.Name, b.Error, b.Metrics)
				}
				if tt.wantErr != "" && !strings.Contains(b.Error, tt.wantErr) {
					t.Errorf("%s: error %q, want it to contain %q", b.Name, b.Error, tt.wantErr)
				}
			}
		})
	}
}

func TestPTXCacheReused(t *testing.T) {
	s := openSession(t)
	dir := t.TempDir()
	o := Options{Fast: true, Size: SizeSmall, Filter: regexp.MustCompile("relu/dtype=fp32/n=4K/mode=batch"), CacheDir: dir}
	if _, err := s.RunSuite(context.Background(), "elementwise", o); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "ptx", "*.ptx"))
	if len(files) == 0 {
		t.Fatalf("no PTX cached under %s", dir)
	}
}

// TestFaultIsAnErrorBenchmark runs a kernel that writes to an illegal
// address in a child process (the fault destroys the context): that case
// must come back as an error with the CUDA error text, and the next one as
// "context lost", without the run failing.
func TestFaultIsAnErrorBenchmark(t *testing.T) {
	if os.Getenv("PERFGATE_FAULT_CHILD") == "1" {
		s := openSession(t)
		bs, err := s.RunUserKernel(context.Background(), saxpyKernel("saxpy_fault", 1<<16), Options{Fast: true, CacheDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		bs2, _ := s.RunUserKernel(context.Background(), saxpyKernel("saxpy", 1<<16), Options{Fast: true})
		for _, b := range append(bs, bs2...) {
			t.Logf("benchmark %s error: %s", b.Name, b.Error)
		}
		return
	}
	openSession(t).Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestFaultIsAnErrorBenchmark$", "-test.v")
	cmd.Env = append(os.Environ(), "PERFGATE_FAULT_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child failed: %v\n%s", err, out)
	}
	for _, want := range []string{"saxpy_fault/n=1M/mode=cold error: ", "ILLEGAL_ADDRESS", "saxpy/n=1M/mode=cold error: the CUDA context was lost"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("child output lacks %q:\n%s", want, out)
		}
	}
}

func TestClosedSession(t *testing.T) {
	s := openSession(t)
	s.Close()
	if _, err := s.RunSuite(context.Background(), "memory", Options{Fast: true}); !errors.Is(err, errClosed) {
		t.Fatalf("RunSuite after Close: %v, want errClosed", err)
	}
}

// TestSequencesHeldInChunks runs the launch sequences and checks what a
// reader of their results relies on: the one-launch-per-op strategies are
// stream launches held in chunks behind the blocking kernel, mixedops is
// replayed from a captured graph, each says so and reports its as-issued
// time, the GPU time per op is no more than the time as issued (which adds
// the CPU's launch rate), and one launch per op costs more than the same
// ops in one CUDA graph.
func TestSequencesHeldInChunks(t *testing.T) {
	s := openSession(t)
	o := Options{Fast: true, Size: SizeSmall, CacheDir: t.TempDir(), Progress: func(l string) { t.Log(l) }}
	var bs []model.Benchmark
	for suite, filter := range map[string]string{
		"microbatch": "(launch_per_op|cuda_graph)/n=4K/",
		"mixedops":   "n=64K/",
		"decode":     "per_launch/dtype=fp16/.*l=512/",
	} {
		o.Filter = regexp.MustCompile(filter)
		got, err := s.RunSuite(context.Background(), suite, o)
		if err != nil {
			t.Fatal(err)
		}
		bs = append(bs, got...)
	}
	med := map[string]float64{}
	for _, b := range bs {
		if b.Error != "" {
			t.Errorf("%s/%s: %s", b.Suite, b.Name, b.Error)
			continue
		}
		med[b.Suite+"/"+b.Name] = b.Metrics["median_us"]
		if strings.Contains(b.Name, "cuda_graph") {
			continue
		}
		issued := b.Metrics["as_issued_us"]
		want := "chunks"
		if b.Suite == "mixedops" {
			want = "replays a CUDA graph"
		}
		if !strings.Contains(b.Info["timing"], want) || issued <= 0 {
			t.Errorf("%s/%s: timing %q, as_issued_us %v: want %q and an as-issued time", b.Suite, b.Name, b.Info["timing"], issued, want)
		}
		if m := b.Metrics["median_us"]; m > 1.2*issued {
			t.Errorf("%s/%s: %.3f µs per op held, %.3f as issued: the GPU's time should not exceed the issued time", b.Suite, b.Name, m, issued)
		}
	}
	for _, mode := range []string{"cold", "batch"} {
		lpo, gr := med["microbatch/launch_per_op/n=4K/ops=10000/mode="+mode], med["microbatch/cuda_graph/n=4K/ops=10000/mode="+mode]
		if !(lpo > gr && gr > 0) {
			t.Errorf("%s: launch_per_op %.3f µs per op, cuda_graph %.3f: want separate launches to cost more", mode, lpo, gr)
		}
	}
}

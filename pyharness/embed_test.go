package pyharness

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/tracker/ingest"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// python returns the python3 on PATH, or skips: the harness's pure modules
// need nothing else (no torch, no GPU).
func python(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on PATH: the Python harness cannot be run")
	}
	return py
}

// TestPythonUnitTests runs the harness's own tests (the Go tests' cases of
// the stopping rule, pacing and loop, ported), so go test covers them.
func TestPythonUnitTests(t *testing.T) {
	py := python(t)
	// Read the tests here so that go test's cache knows them: python3 reads
	// them in another process, which the cache does not see.
	tests, _ := filepath.Glob("tests/*.py")
	for _, f := range append(tests, "tests/fake_torch/torch/__init__.py") {
		if _, err := os.ReadFile(f); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(py, "-m", "unittest", "discover", "-s", "tests", "-t", ".")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "\nOK") {
		t.Fatalf("python3 -m unittest: %v\n%s", err, out)
	}
}

// cannedWriter is the pure-Python writer fed canned measurements: a cold
// benchmark with two samples taken at a low clock, its reference, and a
// benchmark that failed.
const cannedWriter = `
import sys
from perfgate_harness import loop, results, pace
def meas(mode, samples, clocks):
    m = loop.Measurement(mode, 1, 31_400_000, "")
    m.samples, m.clocks, m.stop, m.pace = samples, clocks, "max-samples 40 (rel-std 1.234%)", pace.new_pacer("")
    m.timing = "graph"
    return m
mine = results.to_benchmark("py", "add", {"n": "1024", "dtype": "fp16"},
    meas("cold", [5.0, 5.5, 5.25, 9.0, 9.5], [1980, 1980, 1965, 1500, 1400]), bytes_=6144, flops=1024,
    reference="py/torch_add/dtype=fp16/n=1024/mode=cold")
ref = results.to_benchmark("py", "torch_add", {"n": "1024", "dtype": "fp16"},
    meas("cold", [10.5, 10.5, 10.5], [0, 0, 0]))
bad = results.error_benchmark("py", "broken", {"n": "1024"}, "batch", RuntimeError("CUDA error: an illegal memory access"))
bs = [mine, ref, bad]
results.add_ref_speedups(bs)
results.write_results(sys.argv[1], results.new_run(env={"gpu": "NVIDIA H100 80GB HBM3", "cuda": "13.0"}), bs)
`

// TestPythonWriterIsResultsV1 checks that what the Python harness writes
// loads through the Go reader (resultsjson.Load, every rule of the format) and
// through perfgate ingest's perfgate format, with the samples, metrics and
// errors it wrote.
func TestPythonWriterIsResultsV1(t *testing.T) {
	py := python(t)
	dir, err := Extract(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "py.json")
	cmd := exec.Command(py, "-c", cannedWriter, out)
	cmd.Env = append(os.Environ(), "PYTHONPATH="+dir)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("python writer: %v\n%s", err, b)
	}
	r, err := resultsjson.Load(out)
	if err != nil {
		t.Fatalf("resultsjson.Load: %v", err)
	}
	if len(r.Benchmarks) != 3 || r.Run.Env["gpu"] != "NVIDIA H100 80GB HBM3" || r.Run.Event != "local" {
		t.Fatalf("run %+v with %d benchmarks", r.Run, len(r.Benchmarks))
	}
	mine := r.Benchmarks[0]
	if mine.Name != "add/dtype=fp16/n=1024/mode=cold" || mine.Unit != "us" || mine.Better != model.Lower {
		t.Errorf("benchmark %s %s %s", mine.Name, mine.Unit, mine.Better)
	}
	if want := []float64{5.0, 5.5, 5.25}; !slices.Equal(mine.Samples, want) {
		t.Errorf("samples %v, want %v (the two below 90%% of the median clock dropped)", mine.Samples, want)
	}
	for k, want := range map[string]float64{"median_us": 5.25, "clock_drops": 2, "samples_taken": 5, "sm_clock_mhz": 1965,
		"speedup_vs_torch_add": 2, "gbps": 6144 / 5.25e-6 / 1e9} {
		if got := mine.Metrics[k]; got != want {
			t.Errorf("metrics.%s = %v, want %v", k, got, want)
		}
	}
	if mine.Info["warmup"] != "31ms" || mine.Info["reference"] != "py/torch_add/dtype=fp16/n=1024/mode=cold" ||
		!strings.HasPrefix(mine.Info["clock_flag"], "2 of 5 samples") {
		t.Errorf("info %v", mine.Info)
	}
	if bad := r.Benchmarks[2]; bad.Error != "CUDA error: an illegal memory access" || len(bad.Samples) != 0 {
		t.Errorf("error benchmark %+v", bad)
	}
	bs, err := ingest.ParseFiles(ingest.Perfgate, []string{out}, ingest.Options{})
	if err != nil || len(bs) != 3 {
		t.Fatalf("perfgate ingest: %d benchmarks, %v", len(bs), err)
	}
}

func TestExtractIsStable(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "not-yet")
	a, err := Extract(cache)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Extract(cache)
	if err != nil || a != b {
		t.Fatalf("second Extract %q, %v; want %q", b, err, a)
	}
	if _, err := os.Stat(filepath.Join(a, Package, "__main__.py")); err != nil {
		t.Fatal(err)
	}
	if m, _ := filepath.Glob(filepath.Join(cache, "pyharness", ".tmp-*")); len(m) != 0 {
		t.Errorf("left temporary directories %v", m)
	}
}

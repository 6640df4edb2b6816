package ingest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

// Each fuzz target checks that a parser never panics and that whatever it
// accepts makes a valid results document. Seeds are small inputs that reach
// each format's fields, not the golden files: an input that finds new
// coverage is minimized (for up to -fuzzminimizetime, a minute by default)
// before fuzzing goes on, and inputs of a few kilobytes, mutated from a
// large seed, held the worker there for the whole run (pytest and
// comprehensive made 4 to 6 executions in 60 s; issue 28, item 14). Prefer
// a count to a duration: with go1.26 a duration can end in a spurious
// "context deadline exceeded" with no crasher (go.dev/issue/75804):
//
//	go test ./tracker/ingest -run '^$' -fuzz '^FuzzParsePytest$' -fuzztime 500000x -fuzzminimizetime 200x

func addSeeds(f *testing.F, paths ...string) {
	for _, p := range paths {
		data, err := os.ReadFile(filepath.Join("testdata", p))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

func fuzzFormat(f *testing.F, format string, o Options) {
	f.Fuzz(func(t *testing.T, data []byte) {
		bs, err := Parse(format, "fuzz", data, o)
		if err != nil {
			return
		}
		checkValid(t, bs)
	})
}

func FuzzParseGoTest(f *testing.F) {
	addSeeds(f, "gotest/benchpkg_count5.txt", "gotest/benchpkg_cpu_v.txt")
	fuzzFormat(f, GoTest, Options{})
}

func FuzzParseGBench(f *testing.F) {
	addSeeds(f, "gbench/single.json", "gbench/aggregates_only.json")
	fuzzFormat(f, GBench, Options{})
}

func FuzzParsePytest(f *testing.F) {
	f.Add([]byte(`{"benchmarks": [{"name": "t", "stats": {"data": [0.1, 0.2], "median": 0.1}}]}`))
	f.Add([]byte(`{"benchmarks": [{"group": "g", "name": "t[1]", "fullname": "m.py::t[1]", "params": {"n": 1, "s": "x"},` +
		`"extra_info": {"k": 2, "s": "y"}, "stats": {"min": 0.1, "max": 0.3, "mean": 0.2, "stddev": 0.01,` +
		`"median": 0.2, "rounds": 5, "iterations": 1}}], "version": "4.0.0"}`))
	fuzzFormat(f, PytestBenchmark, Options{})
}

func FuzzParseNVBench(f *testing.F) {
	addSeeds(f, "nvbench/summary.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		bin := func(string) ([]byte, error) { return data[:len(data)/4*4], nil }
		bs, err := ParseNVBench("fuzz", data, bin, Options{})
		if err != nil || len(bs) == 0 {
			return
		}
		checkValid(t, bs)
	})
}

func FuzzParseCriterion(f *testing.F) {
	f.Add([]byte(`{"full_id": "a/b", "value_str": "1", "throughput": {"Bytes": 64}}`), []byte(`{"sampling_mode": "Linear", "iters": [1, 2], "times": [10, 21]}`))
	f.Fuzz(func(t *testing.T, bench, sample []byte) {
		b, err := CriterionBenchmark("fuzz", bench, sample, Options{})
		if err != nil {
			return
		}
		checkValid(t, []model.Benchmark{b})
	})
}

func FuzzParsePerfgate(f *testing.F) {
	addSeeds(f, "perfgate/results.json")
	fuzzFormat(f, Perfgate, Options{})
}

func FuzzParseJSONSamples(f *testing.F) {
	addSeeds(f, "jsonsamples/plain.json", "jsonsamples/spec.json")
	fuzzFormat(f, JSONSamples, Options{Unit: "ms"})
}

func FuzzParseComprehensive(f *testing.F) {
	f.Add([]byte(`[{"operation": "a", "implementation": "f", "batch_size": 8, "dtype": "bf16", "time_ms": 1.9, "memory_mb": 3.5},` +
		`{"operation": "a", "implementation": "f", "batch_size": 8, "dtype": "bf16", "time_ms": 2}]`))
	f.Add([]byte(`[{"operation": "a", "implementation": "n", "batch_size": 64, "error": "out of memory"}]`))
	fuzzFormat(f, Comprehensive, Options{})
}

func FuzzParseSDPA(f *testing.F) {
	addSeeds(f, "sdpa/results.jsonl")
	fuzzFormat(f, SDPAJSONL, Options{})
}

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
	f.Add([]byte("goos: linux\npkg: p\nBenchmarkA-2 \t 10\t 95 ns/op\t 5 MB/s\t 0 B/op\t 1 allocs/op\n" +
		"BenchmarkA-2 \t 12\t 96 ns/op\t 4 MB/s\t 0 B/op\t 1 allocs/op\nBenchmarkB/n=1 \t 5\t 1.5 cpu-ns/op\t 7 ns/op\n"))
	f.Add([]byte("pkg: p\nBenchmarkA\nlog\nBenchmarkA \t 3\t 9 ns/op\n--- FAIL: BenchmarkC\nPASS\nok p 0.1s\n"))
	fuzzFormat(f, GoTest, Options{})
}

func FuzzParseGBench(f *testing.F) {
	f.Add([]byte(`{"benchmarks": [{"name": "BM_Sum/1024", "run_name": "BM_Sum/1024", "run_type": "iteration", "repetitions": 2,` +
		`"iterations": 32, "real_time": 672.2, "cpu_time": 420.3, "time_unit": "ns", "bytes_per_second": 9.7e9, "elems": 1024},` +
		`{"name": "BM_Sum/1024", "run_name": "BM_Sum/1024", "run_type": "iteration", "real_time": 670, "cpu_time": 419, "time_unit": "ns"}]}`))
	f.Add([]byte(`{"benchmarks": [{"name": "BM_Copy_median", "run_name": "BM_Copy", "run_type": "aggregate", "aggregate_name": "median",` +
		`"aggregate_unit": "time", "real_time": 0.058, "cpu_time": 0.057, "time_unit": "us", "items_per_second": 1.7e7},` +
		`{"name": "BM_Copy_cv", "run_name": "BM_Copy", "run_type": "aggregate", "aggregate_name": "cv", "aggregate_unit": "percentage", "real_time": 0.01, "time_unit": "us"}]}`))
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
	value := func(typ, v string) string { return `[{"name": "value", "type": "` + typ + `", "value": "` + v + `"}]` }
	f.Add([]byte(`{"benchmarks": [{"name": "copy", "devices": [0], "states": [{"name": "s", "device": 0,` +
		`"axis_values": [{"name": "T", "type": "string", "value": "F32"}, {"name": "N", "type": "int64", "value": "1024"}],` +
		`"summaries": [{"tag": "nv/cold/time/gpu/mean", "hint": "duration", "data": ` + value("float64", "1.25e-05") + `},` +
		`{"tag": "nv/cold/bw/global/bytes_per_second", "hint": "byte_rate", "data": ` + value("float64", "6.7e11") + `}]},` +
		`{"name": "t", "device": 0, "is_skipped": true, "skip_reason": "too big"}]}]}`))
	f.Add([]byte(`{"benchmarks": [{"name": "b", "states": [{"summaries": [{"tag": "nv/json/bin:nv/cold/sample_times",` +
		`"data": [{"name": "filename", "type": "string", "value": "t.bin"}, {"name": "size", "type": "int64", "value": "2"}]}]}]}]}`))
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

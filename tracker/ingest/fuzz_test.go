package ingest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

// Each fuzz target checks that a parser never panics and that whatever it
// accepts makes a valid results document. Seeds are the golden inputs. On a
// busy machine, bound minimization (or the seeds' size stalls the worker), and
// prefer a count to a duration: with go1.26 a duration can end in a spurious
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
	addSeeds(f, "pytest/saved_without_data.json")
	f.Add([]byte(`{"benchmarks": [{"name": "t", "stats": {"data": [0.1, 0.2], "median": 0.1}}]}`))
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
	addSeeds(f, "comprehensive/results.json")
	fuzzFormat(f, Comprehensive, Options{})
}

func FuzzParseSDPA(f *testing.F) {
	addSeeds(f, "sdpa/results.jsonl")
	fuzzFormat(f, SDPAJSONL, Options{})
}

package ingest

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/internal/golden"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// goldenCases are real tool output (gotest, gbench, pytest-benchmark: see the
// generator commands next to each file) and, for tools that cannot run here,
// files built from their documented formats (criterion/gen.py, nvbench/gen.py
// name the references).
var goldenCases = []struct {
	name, format string
	paths        []string
	opt          Options
}{
	{"gotest_count5", GoTest, []string{"gotest/benchpkg_count5.txt"}, Options{}},
	{"gotest_cpu_v", GoTest, []string{"gotest/benchpkg_cpu_v.txt"}, Options{Suite: "benchpkg"}},
	{"gbench_repetitions", GBench, []string{"gbench/repetitions.json"}, Options{}},
	{"gbench_single", GBench, []string{"gbench/single.json"}, Options{}},
	{"gbench_aggregates_only", GBench, []string{"gbench/aggregates_only.json"}, Options{}},
	{"pytest_data", PytestBenchmark, []string{"pytest/summary.json"}, Options{}},
	{"pytest_saved_without_data", PytestBenchmark, []string{"pytest/saved_without_data.json"}, Options{}},
	{"criterion", Criterion, []string{"criterion/target/criterion"}, Options{}},
	{"nvbench_summary", NVBench, []string{"nvbench/summary.json"}, Options{}},
	{"nvbench_jsonbin", NVBench, []string{"nvbench/with_bin.json"}, Options{}},
	{"perfgate", Perfgate, []string{"perfgate/results.json"}, Options{}},
	{"jsonsamples_plain", JSONSamples, []string{"jsonsamples/plain.json"}, Options{Unit: "ms"}},
	{"jsonsamples_spec", JSONSamples, []string{"jsonsamples/spec.json"}, Options{}},
	{"comprehensive", Comprehensive, []string{"comprehensive/results.json"}, Options{}},
	{"comprehensive_guide", Comprehensive, []string{"comprehensive/guide.json"}, Options{}}, // the example in the tool's own guide
	{"sdpa", SDPAJSONL, []string{"sdpa/results.jsonl"}, Options{}},
	{"sdpa_pooled_twice", SDPAJSONL, []string{"sdpa/results.jsonl", "sdpa/results.jsonl"}, Options{}},
}

func TestGolden(t *testing.T) {
	for _, tt := range goldenCases {
		t.Run(tt.name, func(t *testing.T) {
			paths := make([]string, len(tt.paths))
			for i, p := range tt.paths {
				paths[i] = filepath.Join("testdata", p)
			}
			bs, err := ParseFiles(tt.format, paths, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			checkValid(t, bs)
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetIndent("", "  ")
			if err := enc.Encode(bs); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("golden", tt.name+".json"), buf.Bytes())
		})
	}
}

// checkValid checks that the benchmarks make a valid results-v1 document.
func checkValid(t *testing.T, bs []model.Benchmark) {
	t.Helper()
	r := model.Results{Schema: model.Schema, Run: model.Run{ID: "x", Repo: "a/b", Commit: strings.Repeat("0", 40),
		Branch: "main", Event: model.EventLocal, Testbed: "t"}, Benchmarks: bs}
	var buf bytes.Buffer
	if err := resultsjson.Encode(&buf, &r); err != nil {
		t.Fatal(err)
	}
	if _, err := resultsjson.Parse("ingested", buf.Bytes()); err != nil {
		t.Fatalf("not a valid results document: %v", err)
	}
}

// TestGoTestLongLogLine: a benchmark that prints a 5 MB line (log output)
// is parsed around it, and later lines keep their numbers (issue 28, item
// 14: the whole file failed with "line 0: token too long").
func TestGoTestLongLogLine(t *testing.T) {
	in := "pkg: x\nBenchmarkA-2  10  5 ns/op\n" + strings.Repeat("log ", 5<<18) + "\nBenchmarkA-2  10  6 ns/op\nBenchmarkB-2  10  -1 ns/op\n"
	_, err := Parse(GoTest, "f.txt", []byte(in), Options{})
	if err == nil || !strings.Contains(err.Error(), "f.txt: line 5: -1 ns/op") {
		t.Errorf("err = %v, want one naming line 5 (the 5 MB line is line 3)", err)
	}
	in = strings.Replace(in, "-1", "7", 1)
	bs, err := Parse(GoTest, "f.txt", []byte(in), Options{})
	if err != nil || len(bs) != 2 || len(bs[0].Samples) != 2 {
		t.Errorf("got %+v, %v; want A with 2 samples and B", bs, err)
	}
}

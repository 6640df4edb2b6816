package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

// TestDetect: every example output of testdata is told as the format that
// parses it, so compare can take the files as the tools wrote them.
func TestDetect(t *testing.T) {
	tests := []struct{ path, want string }{
		{"testdata/gotest/benchpkg_count5.txt", GoTest},
		{"testdata/gotest/benchpkg_cpu_v.txt", GoTest},
		{"testdata/gbench/repetitions.json", GBench},
		{"testdata/gbench/single.json", GBench},
		{"testdata/gbench/aggregates_only.json", GBench},
		{"testdata/pytest/summary.json", PytestBenchmark},
		{"testdata/pytest/saved_without_data.json", PytestBenchmark},
		{"testdata/nvbench/summary.json", NVBench},
		{"testdata/nvbench/with_bin.json", NVBench},
		{"testdata/perfgate/results.json", Perfgate},
		{"testdata/jsonsamples/plain.json", JSONSamples},
		{"testdata/jsonsamples/spec.json", JSONSamples},
		{"testdata/comprehensive/results.json", Comprehensive},
		{"testdata/comprehensive/guide.json", Comprehensive},
		{"testdata/sdpa/results.jsonl", SDPAJSONL},
		{"testdata/criterion/target/criterion", Criterion},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			got, err := Detect(tt.path)
			if err != nil || got != tt.want {
				t.Fatalf("Detect(%s) = %q, %v; want %q", tt.path, got, err, tt.want)
			}
			if _, err := ParseFiles(got, []string{tt.path}, Options{Unit: "ms"}); err != nil {
				t.Errorf("the detected format %s does not parse %s: %v", got, tt.path, err)
			}
		})
	}
}

func TestDetectBytes(t *testing.T) {
	tests := []struct{ name, head, want string }{
		{"go test without header", "BenchmarkAdd-8   100  12 ns/op\n", GoTest},
		{"go test after log lines", "=== RUN   TestX\n--- PASS: TestX\ngoos: linux\n", GoTest},
		{"a byte order mark", "\ufeff{\"schema\": \"perfgate.results/v1\"", Perfgate},
		{"json lines on a .txt", "{\"B\": 4, \"median_ms\": 0.8}\n{\"B\": 8, \"median_ms\": 1.6}\n", SDPAJSONL},
		{"one-line json-samples", "{\"add\": [1, 2, 3]}\n", JSONSamples},
		{"empty", " \n\t", ""},
		{"prose", "hello world\nnot a benchmark\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DetectBytes([]byte(tt.head)); got != tt.want {
				t.Errorf("DetectBytes(%q) = %q, want %q", tt.head, got, tt.want)
			}
		})
	}
}

// TestDetectRefuses: a file no format fits, or that is missing, is an
// input error naming it, and the unknown one says how to name the format.
func TestDetectRefuses(t *testing.T) {
	dir := t.TempDir()
	prose := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(prose, []byte("meeting notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ path, want string }{
		{prose, "cannot tell which tool's output this is; name its format (gotest, "},
		{filepath.Join(dir, "missing.txt"), "cannot read the file"},
	} {
		_, err := Detect(tt.path)
		if !model.IsInputError(err) || !strings.Contains(err.Error(), tt.path) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Detect(%s) = %v; want an input error naming it and %q", tt.path, err, tt.want)
		}
	}
}

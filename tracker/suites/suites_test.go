package suites

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

func TestRunPoolsRawSamples(t *testing.T) {
	dir := t.TempDir()
	// Each run appends a line to count, so each repeat reports another number.
	c := Command{Suite: "s", Dir: dir, Format: "gotest", Repeat: 3,
		Run: `echo x >> count; n=$(wc -l < count); printf 'pkg: p\nBenchmarkA-2 \t 10 \t %d00 ns/op \t 5 MB/s\nBenchmarkA-2 \t 10 \t %d50 ns/op\n' $n $n`}
	bs, err := Run(context.Background(), c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != 1 {
		t.Fatalf("got %d benchmarks, want 1", len(bs))
	}
	b := bs[0]
	want := []float64{100, 150, 200, 250, 300, 350}
	if b.Suite != "s" || b.Name != "BenchmarkA" || b.SummaryOnly || !slices.Equal(b.Samples, want) {
		t.Errorf("got %s/%s samples %v summary-only %v; want s/BenchmarkA %v raw", b.Suite, b.Name, b.Samples, b.SummaryOnly, want)
	}
	if b.Info["repeats"] != "3" {
		t.Errorf("info = %v", b.Info)
	}
}

func TestRunPoolsSummariesHonestly(t *testing.T) {
	src, err := filepath.Abs("../ingest/testdata/pytest/saved_without_data.json")
	if err != nil {
		t.Fatal(err)
	}
	c := Command{Suite: "py", Dir: t.TempDir(), Format: "pytest-benchmark", Output: "out/bench.json", Repeat: 4,
		Run: "mkdir -p out && cp '" + src + "' out/bench.json"}
	bs, err := Run(context.Background(), c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bs {
		if len(b.Samples) != 4 || !b.SummaryOnly || !strings.Contains(b.Info["pooled"], "one summary per repeat (4 repeats)") {
			t.Errorf("%s: %d samples, summary-only %v, info %v; want 4 flagged per-repeat summaries", b.Name, len(b.Samples), b.SummaryOnly, b.Info)
		}
	}
}

func TestRunEnvAndDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "marker"), []byte("here"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := Command{Suite: "j", Dir: dir, Format: "json-samples", Unit: "ms", Env: []string{"BENCH_NAME=from-env"},
		Run: `test -f marker && printf '{"%s": [1, 2, 3]}' "$BENCH_NAME"`}
	bs, err := Run(context.Background(), c, Options{Env: []string{"PATH=" + os.Getenv("PATH")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != 1 || bs[0].Name != "from-env" || bs[0].Unit != "ms" {
		t.Errorf("got %+v", bs)
	}
}

func TestRunFailures(t *testing.T) {
	tests := []struct {
		name    string
		c       Command
		setup   func(dir string)
		infra   bool // a *RunError; else a *model.InputError
		want    string
		maxTime time.Duration
	}{
		{name: "exit status", c: Command{Run: "echo boom >&2; exit 3", Format: "gotest"}, infra: true, want: "exit status 3\nboom"},
		{name: "timeout kills the group", c: Command{Run: "sleep 30 & sleep 30; wait", Format: "gotest", Timeout: 300 * time.Millisecond},
			infra: true, want: "timed out after 300ms", maxTime: 10 * time.Second},
		{name: "unparsable output", c: Command{Run: "echo '{' ", Format: "gbench"}, want: "suite s (standard output of run 1): invalid JSON: unexpected end of input"},
		{name: "no benchmarks", c: Command{Run: "echo PASS", Format: "gotest"}, want: "no benchmarks found"},
		{name: "output missing", c: Command{Run: "true", Format: "gbench", Output: "out.json"}, want: "did not write its output"},
		{name: "stale output removed", c: Command{Run: "true", Format: "gbench", Output: "out.json"},
			setup: func(dir string) { os.WriteFile(filepath.Join(dir, "out.json"), []byte(`{"benchmarks": []}`), 0o644) }, want: "did not write its output"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.setup != nil {
				tt.setup(dir)
			}
			tt.c.Suite, tt.c.Dir, tt.c.Repeat = "s", dir, 2
			start := time.Now()
			_, err := Run(context.Background(), tt.c, Options{})
			if tt.maxTime > 0 && time.Since(start) > tt.maxTime {
				t.Errorf("took %v: the process group was not killed", time.Since(start))
			}
			var re *RunError
			if tt.infra != errors.As(err, &re) || (!tt.infra && !model.IsInputError(err)) {
				t.Fatalf("error %v (%T): want infra=%v", err, err, tt.infra)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
		})
	}
}

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

const ingestTestdata = "../../tracker/ingest/testdata"

func TestIngestWritesResults(t *testing.T) {
	out := filepath.Join(t.TempDir(), "results.json")
	var stdout, stderr bytes.Buffer
	args := []string{"ingest", "--format", "gbench", "--suite", "cpp", "--out", out, "--commit", strings.Repeat("a", 40),
		"--repo", "o/r", "--branch", "main", "--testbed", "ci-1", "--run-id", "r1",
		filepath.Join(ingestTestdata, "gbench/repetitions.json")}
	if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	r, err := resultsjson.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if r.Run.ID != "r1" || r.Run.Testbed != "ci-1" || len(r.Benchmarks) != 4 || r.Benchmarks[0].Suite != "cpp" || len(r.Benchmarks[0].Samples) != 5 {
		t.Errorf("results: run %+v, %d benchmarks, first %+v", r.Run, len(r.Benchmarks), r.Benchmarks[0])
	}
}

func TestIngestPoolsFiles(t *testing.T) {
	var stdout, stderr bytes.Buffer
	f := filepath.Join(ingestTestdata, "gotest/benchpkg_count5.txt")
	args := []string{"ingest", "--format", "gotest", "--commit", strings.Repeat("b", 40), f, f}
	if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	r, err := resultsjson.Parse("stdout", stdout.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if n := len(r.Benchmarks[0].Samples); n != 10 {
		t.Errorf("%d samples, want 10 (5 per file, two files)", n)
	}
}

func TestIngestBadInputWritesNothing(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(ingestTestdata, "gbench/single.json")
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("{\"benchmarks\": [{\"name\": \"a\", \"real_time\": -3}]}"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--format", "gbench", good, bad}, "bad.json: $.benchmarks[0].real_time: -3 is not a valid ns measurement"},
		{[]string{"--format", "gbench", filepath.Join(dir, "missing.json")}, "missing.json: cannot read the file"},
		{[]string{"--format", "junit", good}, "-format: \"junit\" is not one of"},
		{[]string{good}, "-format: required"},
		{[]string{"--format", "gbench"}, "no input files"},
		{[]string{"--format", "gbench", "--unit", "ms", good}, "--unit and --better apply to --format json-samples only"},
		{[]string{"--format", "gbench", "--metric", "x", good}, "--metric applies to --format gotest only"},
		{[]string{"--format", "json-samples", "--better", "up", good}, "-better: must be lower or higher"},
		{[]string{"--format", "criterion", good}, "criterion output is a directory"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out := filepath.Join(dir, "out.json")
			var stdout, stderr bytes.Buffer
			args := append([]string{"ingest", "--out", out, "--commit", strings.Repeat("c", 40)}, tt.args...)
			code := run(context.Background(), args, &stdout, &stderr)
			if code != cli.ExitBadInput || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr.String(), tt.want)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("%s was written", out)
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.HasPrefix(e.Name(), ".out.json.tmp") {
					t.Errorf("temporary file %s left behind", e.Name())
				}
			}
		})
	}
}

// TestIngestCriterionBaseline ingests a saved Criterion baseline by name
// (base/ beside new/ in the testdata) and refuses the flag for other formats.
func TestIngestCriterionBaseline(t *testing.T) {
	dir := filepath.Join(ingestTestdata, "criterion/target/criterion")
	tests := []struct {
		name string
		args []string
		code int
		want string // in stdout (code 0) or stderr
	}{
		{"base", []string{"--format", "criterion", "--criterion-baseline", "base", dir}, 0, `"name": "fib/recursive/20"`},
		{"missing", []string{"--format", "criterion", "--criterion-baseline", "main", dir}, 2, "baselines present: base, new"},
		{"not criterion", []string{"--format", "gotest", "--criterion-baseline", "base", dir}, 2, "--criterion-baseline applies to --format criterion only"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append([]string{"ingest", "--commit", strings.Repeat("c", 40)}, tt.args...)
			code := run(context.Background(), args, &stdout, &stderr)
			got := stdout.String()
			if tt.code != 0 {
				got = stderr.String()
			}
			if code != tt.code || !strings.Contains(got, tt.want) {
				t.Errorf("exit %d, output %q; want exit %d and %q", code, got, tt.code, tt.want)
			}
		})
	}
}

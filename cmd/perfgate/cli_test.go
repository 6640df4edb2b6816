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

const goTestOutput = "../../tracker/ingest/testdata/gotest/benchpkg_count5.txt"

// TestFlagsAnywhere: flags after a positional argument are flags, for every
// command (issue 11, defect 1); "--" ends them.
func TestFlagsAnywhere(t *testing.T) {
	for name := range commands {
		t.Run(name, func(t *testing.T) {
			args := []string{name, "some-file", "--no-such-flag"}
			if name == "chart" { // its flags belong to its subcommands
				args = []string{name, "trend", "some-file", "--no-such-flag"}
			}
			_, stderr, code := invoke(t, nil, args...)
			if code != 2 || !strings.Contains(stderr, "--no-such-flag: unknown flag") {
				t.Errorf("%s some-file --no-such-flag: exit %d, stderr %q; want 2, the flag named as unknown", name, code, stderr)
			}
		})
	}
	t.Run("ingest --out after the file", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "r.json")
		_, stderr, code := invoke(t, nil, "ingest", "--format", "gotest", goTestOutput, "--out", out)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		r, err := resultsjson.Load(out)
		if err != nil || len(r.Benchmarks) == 0 {
			t.Fatalf("the results file: %v (%d benchmarks)", err, len(r.Benchmarks))
		}
	})
	t.Run("-- ends the flags", func(t *testing.T) {
		_, stderr, code := invoke(t, nil, "ingest", "--format", "gotest", "--", "--out")
		if code != 2 || !strings.Contains(stderr, "--out: cannot read the file") {
			t.Errorf("exit %d, stderr %q; want 2 and --out read as a file name", code, stderr)
		}
	})
}

// TestErrorsPointToTheFix: typos get a "did you mean" and one line, not the
// usage; another tool's output given to record names ingest (defect 7).
func TestErrorsPointToTheFix(t *testing.T) {
	bench := filepath.Join(t.TempDir(), "bench.txt")
	data, err := os.ReadFile(goTestOutput)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bench, data, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"command typo", []string{"ingset"}, `unknown command "ingset" (did you mean "ingest"?)`},
		{"flag typo", []string{"ingest", "--fromat", "gotest", bench}, "ingest: --fromat: unknown flag (did you mean --format?)"},
		{"flag typo after the file", []string{"trend", "--benchmark", "x", "--sicne", "9d"}, "trend: --sicne: unknown flag (did you mean --since?)"},
		{"bad value", []string{"prune", "--keep", "many"}, `prune: --keep: invalid value "many"`},
		{"record of go test output", []string{"record", "--store", t.TempDir(), bench}, "perfgate ingest --format FORMAT FILE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := invoke(t, nil, tt.args...)
			if code != 2 || !strings.Contains(stderr, tt.want) {
				t.Fatalf("perfgate %s: exit %d, stderr %q; want 2 and %q", strings.Join(tt.args, " "), code, stderr, tt.want)
			}
			if strings.Contains(stderr, "flags:\n") || strings.Contains(stderr, "commands:\n") || strings.Count(stderr, "\n") > 2 {
				t.Errorf("perfgate %s printed more than the error and a hint:\n%s", strings.Join(tt.args, " "), stderr)
			}
		})
	}
}

// TestIngestStdin: "ingest -" reads standard input (defect 7).
func TestIngestStdin(t *testing.T) {
	data, err := os.ReadFile(goTestOutput)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	e := &cli.Env{Stdin: bytes.NewReader(data), Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }}
	if code := runEnv(context.Background(), []string{"ingest", "--format", "gotest", "-"}, e); code != 0 {
		t.Fatalf("ingest -: exit %d: %s", code, stderr.String())
	}
	r, err := resultsjson.Parse("stdout", stdout.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Benchmarks) != 3 || r.Benchmarks[0].Name != "BenchmarkChecksum/size=1024" {
		t.Errorf("ingest - read %d benchmarks, first %q; want the 3 of %s", len(r.Benchmarks), r.Benchmarks[0].Name, goTestOutput)
	}
}

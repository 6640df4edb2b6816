package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/internal/golden"
	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/runner"
)

// runCmd runs perfgate in-process with no environment.
func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	stdout, stderr, code = invoke(t, nil, args...)
	return code, stdout, stderr
}

func TestRunList(t *testing.T) {
	code, out, errs := runCmd(t, "run", "--list", "--size", "small")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	golden.Check(t, "run_list_small.txt", out)
}

func TestRunListFiltered(t *testing.T) {
	code, out, _ := runCmd(t, "run", "--list", "--size", "large", "--dtype", "bf16", "--filter", "gelu/.*n=256M")
	var names []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "  ") {
			names = append(names, strings.TrimSpace(l))
		}
	}
	want := []string{"gelu/dtype=bf16/n=256M/mode=cold", "gelu/dtype=bf16/n=256M/mode=batch"}
	if code != 0 || strings.Join(names, ",") != strings.Join(want, ",") {
		t.Fatalf("exit %d, benchmarks %v, want %v", code, names, want)
	}
}

func TestRunListSuiteAndOp(t *testing.T) {
	code, out, errs := runCmd(t, "run", "--list", "--suite", "gemm,rowwise", "--op", "tiled,layernorm", "--dtype", "fp16", "--size", "small")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	golden.Check(t, "run_list_suite_op.txt", out)
}

// TestRunListReference: --list --reference torch lists each suite's
// PyTorch arms after its benchmarks, the same selection's.
func TestRunListReference(t *testing.T) {
	code, out, errs := runCmd(t, "run", "--list", "--suite", "gemm,attention", "--op", "tiled", "--dtype", "fp16", "--size", "small", "--reference", "torch")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	golden.Check(t, "run_list_reference.txt", out)
}

func TestRunUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown suite", []string{"run", "--suite", "memory,nope"}, `-suite: unknown suite "nope"`},
		{"bad size", []string{"run", "--suite", "memory", "--size", "huge"}, `-size: "huge" is not one of small, medium, large, ci`},
		{"bad dtype", []string{"run", "--suite", "memory", "--dtype", "fp8"}, `-dtype: "fp8" is not one of fp32, fp16, bf16`},
		{"bad filter", []string{"run", "--suite", "memory", "--filter", "("}, "-filter: error parsing regexp"},
		{"negative max-time", []string{"run", "--suite", "memory", "--max-time", "-1s"}, "-max-time: -1s is negative"},
		{"stray argument", []string{"run", "elementwise"}, `unexpected argument "elementwise"`},
		{"config with a built-in flag", []string{"run", "--config", "x.yml", "--filter", "add"}, "-config: --filter, --op, --dtype and --max-time apply to built-in suites"},
		{"unknown reference", []string{"run", "--suite", "memory", "--reference", "pytorch"}, `-reference: "pytorch" is not one of torch, auto`},
		{"config with a reference", []string{"run", "--config", "x.yml", "--reference", "torch"}, "-config: --reference applies to built-in suites"},
		{"unknown op", []string{"run", "--suite", "rowwise", "--op", "layernrom"}, `-op: "layernrom" is not an operation of a built-in suite`},
		{"op of another suite", []string{"run", "--suite", "rowwise", "--op", "cublas"}, "--filter, --op, --dtype: they select no benchmark of rowwise"},
		{"list of an unknown suite", []string{"run", "--list", "--suite", "nope"}, `-suite: unknown suite "nope"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errs := runCmd(t, tt.args...)
			if code != 2 || !strings.Contains(errs, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, errs, tt.want)
			}
		})
	}
}

func TestRunWithoutCUDA(t *testing.T) {
	if kernels.CUDA {
		t.Skip("this binary has CUDA: the no-CUDA path is tested by the default build")
	}
	for _, args := range [][]string{
		{"run", "--suite", "elementwise", "--commit", "abc"},
		{"run", "--commit", "abc"}, // the default set: GPU suites only
		{"doctor"},
	} {
		code, _, errs := runCmd(t, args...)
		if code != 3 || !strings.Contains(errs, "built without CUDA (-tags cuda)") || !strings.Contains(errs, "Building with CUDA") {
			t.Errorf("%v: exit %d, stderr %q; want exit 3 and how to build with CUDA", args, code, errs)
		}
	}
}

func TestRunConfigMissingFile(t *testing.T) {
	code, _, errs := runCmd(t, "run", "--config", "testdata/does-not-exist.yml", "--commit", "abc")
	if code != 2 || !strings.Contains(errs, "does-not-exist.yml") {
		t.Errorf("exit %d, stderr %q; want exit 2 naming the file", code, errs)
	}
}

func TestRunSelectsNothing(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"microbatch is fp32 only", []string{"run", "--suite", "microbatch", "--dtype", "fp16"}},
		{"filter matches none of the named suites", []string{"run", "--suite", "memory,mixedops", "--filter", "elementwise/"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errs := runCmd(t, tt.args...)
			if code != 2 || !strings.Contains(errs, "--filter, --op, --dtype: they select no benchmark of") {
				t.Errorf("exit %d, stderr %q; want exit 2 before any GPU work", code, errs)
			}
		})
	}
}

// TestRunDefaultSelection: no --suite runs ./.perfgate.yml's suites when
// there is one, else every built-in suite at size ci (unless a size is named).
func TestRunDefaultSelection(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		env        map[string]string
		config     bool
		wantSuites string
		wantSize   string
		wantConfig string
	}{
		{"nothing named: all built-ins at ci", nil, nil, false, strings.Join(kernels.DefaultSuites(), ","), "ci", ""},
		{"a size named", []string{"--size", "small"}, nil, false, strings.Join(kernels.DefaultSuites(), ","), "small", ""},
		{"PERFGATE_SIZE", nil, map[string]string{"PERFGATE_SIZE": "large"}, false, strings.Join(kernels.DefaultSuites(), ","), "large", ""},
		{"a suite named keeps medium", []string{"--suite", "memory"}, nil, false, "memory", "medium", ""},
		{".perfgate.yml present", nil, nil, true, "", "medium", ".perfgate.yml"},
		{"--config wins", []string{"--config", "other.yml"}, nil, true, "", "medium", "other.yml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			if tt.config {
				if err := os.WriteFile(".perfgate.yml", []byte("suites: []\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			e := &cli.Env{Getenv: func(k string) string { return tt.env[k] }, Stdout: io.Discard, Stderr: io.Discard}
			var s runner.Settings
			fs := cli.NewFlagSet(e, "run", "")
			registerRunFlags(fs, e, &s)
			if err := cli.ParseFlags(fs, tt.args); err != nil {
				t.Fatal(err)
			}
			s.Defaults(context.Background(), cli.FlagsGiven(fs)["size"] || tt.env["PERFGATE_SIZE"] != "")
			if s.Suites != tt.wantSuites || s.Size != tt.wantSize || s.Config != tt.wantConfig {
				t.Errorf("suites %q size %q config %q; want %q %q %q", s.Suites, s.Size, s.Config, tt.wantSuites, tt.wantSize, tt.wantConfig)
			}
		})
	}
}

func TestRunListDefaultIsCI(t *testing.T) {
	code, out, errs := runCmd(t, "run", "--list")
	if code != 0 || !strings.Contains(out, "memcpy_dtod/bytes=128M/mode=cold") || strings.Contains(out, "n=64M") {
		t.Errorf("exit %d (%s): perfgate run --list does not list the ci set:\n%s", code, errs, out)
	}
}

// TestRunNoCommitYet: run in a checkout just made with git init says it
// has no commit yet and how to name one; it said "not in a git checkout".
func TestRunNoCommitYet(t *testing.T) {
	dir := t.TempDir()
	abGit(t, dir, "init", "-q")
	t.Chdir(dir)
	start := time.Now()
	code, _, errs := runCmd(t, "run", "--suite", "cmdpath", "--fast")
	for _, want := range []string{"--commit: the git checkout " + dir + " has no commit yet", "commit first (git commit), or pass --commit SHA"} {
		if code != 2 || !strings.Contains(errs, want) {
			t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, errs, want)
		}
	}
	if strings.Contains(errs, "not in a git checkout") {
		t.Errorf("stderr %q says it is not in a git checkout", errs)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the error came after %s: the run block is resolved before measuring", d)
	}
}

// TestRunListConfig: run --config FILE --list lists that config's suites
// and their benchmarks, not the built-in suites (it ignored --config, even
// a missing file, and listed all 792 built-in benchmarks); a missing file
// is exit 2 naming it.
func TestRunListConfig(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, ".perfgate.yml")
	yml := "version: 1\nsuites:\n" +
		"  - name: mem\n    builtin: {suite: memory, size: small, filter: \"float4\"}\n" +
		"  - name: gobench\n    command: {run: \"go test -bench .\", format: gotest}\n"
	if err := os.WriteFile(cfg, []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	_, builtin, _ := runCmd(t, "run", "--list", "--suite", "memory", "--size", "small", "--filter", "float4")
	want := strings.Split(strings.TrimSpace(builtin), "\n")[1:]
	code, out, errs := runCmd(t, "run", "--config", cfg, "--list")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(want) == 0 || len(lines) != len(want)+2 ||
		lines[0] != "mem: builtin suite memory at size small" ||
		strings.Join(lines[1:len(want)+1], "\n") != strings.Join(want, "\n") ||
		lines[len(lines)-1] != "gobench: command suite (gotest output; its benchmarks are what it prints): go test -bench ." {
		t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant mem with the %d benchmarks of memory/float4 at size small, then gobench", code, errs, out, len(want))
	}
	code, out, _ = runCmd(t, "run", "--config", "../../examples/kernels/.perfgate.yml", "--list", "--suite", "saxpy")
	if code != 0 || !strings.HasPrefix(out, "saxpy: kernel saxpy of saxpy.cu\n  saxpy/n=1048576/unroll=1/mode=cold\n") ||
		strings.Count(out, "\n  saxpy/") != 12 || strings.Contains(out, "benchpkg") {
		t.Errorf("--suite saxpy: exit %d, stdout:\n%s\nwant the 12 benchmarks of the saxpy sweep (6 points, 2 modes)", code, out)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--config", filepath.Join(dir, "missing.yml")}, filepath.Join(dir, "missing.yml") + ": cannot read the configuration"},
		{[]string{"--config", cfg, "--suite", "memory"}, `--suite: "memory" is not a suite of ` + cfg},
	} {
		code, out, errs := runCmd(t, append([]string{"run", "--list"}, tt.args...)...)
		if code != 2 || !strings.Contains(errs, tt.want) || out != "" {
			t.Errorf("run --list %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", strings.Join(tt.args, " "), code, out, errs, tt.want)
		}
	}
}

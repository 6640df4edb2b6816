package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// abConfig runs examples/benchpkg's 1 KiB checksum from a test binary built
// once per side by prepare: 2 samples of 1000 iterations per round. The
// samples compared are passes/op, the work each op does (10 passes over
// the input, 12 with a 20% slowdown), not a time: this test checks that ab
// runs each side's code, interleaves and pools the rounds, compares and
// cleans up, and its verdict must not depend on the machine's load. Even
// CPU time moved by +40% between samples on a loaded 2-core runner, and
// once turned the 20% slowdown into a not-significant +16.9% (a warning).
// How well timings detect a change is the statistics' business
// (tracker/compare's simulations), not this test's.
const abConfig = `prepare:
  - cd benchpkg && go test -c -o ../bench.test .
suites:
  - name: benchpkg
    command:
      run: ./bench.test -test.run '^$' -test.bench 'Checksum/size=1024$' -test.benchtime 1000x -test.count 2
      format: gotest
      metric: passes/op
      timeout: 2m
`

// makeABRepo builds a git repository with two commits: the base with
// examples/benchpkg as it is, and a head that sets the slowdown knob to
// slowdownPct (0: the head only touches a README).
func makeABRepo(t *testing.T, slowdownPct int) string {
	t.Helper()
	dir := t.TempDir()
	pkg := filepath.Join(dir, "benchpkg")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "benchpkg", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("examples/benchpkg: %v", err)
	}
	for _, f := range files {
		abWriteFile(t, filepath.Join(pkg, filepath.Base(f)), readFile(t, f))
	}
	abWriteFile(t, filepath.Join(dir, "go.mod"), "module benchdemo\n\ngo 1.26\n")
	abWriteFile(t, filepath.Join(dir, ".perfgate.yml"), abConfig)
	abWriteFile(t, filepath.Join(dir, ".gitignore"), "bench.test\n")
	abGit(t, dir, "init", "-q", "-b", "main")
	abGit(t, dir, "add", ".")
	abGit(t, dir, "commit", "-q", "-m", "base")
	if slowdownPct > 0 {
		abWriteFile(t, filepath.Join(pkg, "knob.go"), strings.Replace(readFile(t, filepath.Join(pkg, "knob.go")),
			"const slowdownPercent = 0", "const slowdownPercent = "+strconv.Itoa(slowdownPct), 1))
	} else {
		abWriteFile(t, filepath.Join(dir, "README"), "no performance change\n")
	}
	abGit(t, dir, "add", ".")
	abGit(t, dir, "commit", "-q", "-m", "head")
	return dir
}

func TestABInterleaved(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test -bench in a scratch module, twice per case (41 s under -race at load 5-11); .ci/run runs it without -race")
	}
	tests := []struct {
		name        string
		slowdown    int
		wantCode    int
		wantVerdict string
	}{
		{"20% slowdown is a regression", 20, cli.ExitRegression, "regression"},
		{"no change is no regression", 0, cli.ExitOK, "unchanged"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			repo := makeABRepo(t, tt.slowdown)
			outs := t.TempDir()
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), []string{"ab", "--repo", repo, "--base", "HEAD~1", "--rounds", "8", "--format", "json",
				"--out-base", filepath.Join(outs, "base.json"), "--out-head", filepath.Join(outs, "head.json")}, &stdout, &stderr)
			if code != tt.wantCode {
				t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.wantCode, stdout.String(), stderr.String())
			}
			var rep struct {
				Interleaved bool `json:"interleaved"`
				Benchmarks  []struct {
					Name            string  `json:"name"`
					NBaseline       int     `json:"n_baseline"`
					NCandidate      int     `json:"n_candidate"`
					Change          float64 `json:"change"`
					PAdjusted       any     `json:"p_adjusted"`
					Verdict         string  `json:"verdict"`
					BaselineMedian  any     `json:"baseline_median"`
					CandidateMedian any     `json:"candidate_median"`
				} `json:"benchmarks"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
				t.Fatalf("%v\n%s", err, stdout.String())
			}
			if !rep.Interleaved || len(rep.Benchmarks) != 1 {
				t.Fatalf("report: interleaved=%v, %d benchmarks\n%s", rep.Interleaved, len(rep.Benchmarks), stdout.String())
			}
			b := rep.Benchmarks[0]
			t.Logf("%s: n=%d/%d median %v -> %v passes/op, change %v, adjusted p %v, verdict %s",
				b.Name, b.NBaseline, b.NCandidate, b.BaselineMedian, b.CandidateMedian, b.Change, b.PAdjusted, b.Verdict)
			if b.NBaseline != 16 || b.NCandidate != 16 {
				t.Errorf("samples %d/%d, want 16/16 (8 rounds × count 2)", b.NBaseline, b.NCandidate)
			}
			if b.Verdict != tt.wantVerdict {
				t.Errorf("verdict %s, want %s", b.Verdict, tt.wantVerdict)
			}
			if want := float64(tt.slowdown) / 100; math.Abs(b.Change-want) > 1e-9 {
				t.Errorf("change %v, want %v: the head's passes/op over the base's", b.Change, want)
			}
			if out := abGitOut(t, repo, "worktree", "list"); strings.Count(out, "\n") != 0 {
				t.Errorf("worktree left behind:\n%s", out)
			}
			for _, side := range []string{"base", "head"} {
				r, err := resultsjson.Load(filepath.Join(outs, side+".json"))
				if err != nil {
					t.Fatal(err)
				}
				if n := len(r.Benchmarks[0].Samples); n != 16 || r.Benchmarks[0].Unit != "passes/op" {
					t.Errorf("%s.json: %d samples in %s, want 16 pooled passes/op samples", side, n, r.Benchmarks[0].Unit)
				}
			}
		})
	}
}

func TestABUsageErrors(t *testing.T) {
	repo := makeABRepo(t, 0)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"ab"}, "-base: required"},
		{[]string{"ab", "--repo", repo, "--base", "nope"}, "-base: \"nope\" is not a commit"},
		{[]string{"ab", "--repo", repo, "--base", "HEAD~1", "--rounds", "0"}, "-rounds: must be from 1 to 1000"},
		{[]string{"ab", "--repo", repo, "--base", "HEAD~1", "--order", "aabb"}, "-order: must be abba or abab"},
		{[]string{"ab", "--repo", repo, "--base", "HEAD~1", "--config", filepath.Join(repo, "missing.yml")}, "missing.yml: cannot read the configuration"},
		{[]string{"ab", "--repo", t.TempDir(), "--base", "HEAD"}, "is not inside a git repository"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args[1:], " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), tt.args, &stdout, &stderr)
			if code != cli.ExitBadInput || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr.String(), tt.want)
			}
		})
	}
}

func abWriteFile(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func abGit(t *testing.T, dir string, args ...string) {
	t.Helper()
	abGitOut(t, dir, args...)
}

func abGitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=perfgate", "-c", "user.email=perfgate@example.com", "-C", dir}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

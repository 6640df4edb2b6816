package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/fakegithub"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// writeConfig writes a .perfgate.yml with extra appended to one command suite.
func writeConfig(t *testing.T, dir, extra string) string {
	t.Helper()
	path := filepath.Join(dir, ".perfgate.yml")
	yml := "suites:\n  - name: js\n    command:\n      run: \"echo '{\\\"a\\\": [1, 2, 3]}'\"\n      format: json-samples\n      unit: ms\n" + extra
	if err := os.WriteFile(path, []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestActionConfigSettings checks that the config's thresholds, ignore
// globs and baseline branch shape the pull-request check, and that the
// threshold input wins over the config's default.
func TestActionConfigSettings(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	cfg := writeConfig(t, dir, "thresholds:\n  default: 50%\nignore:\n  - \"kernels/softmax*\"\nbaseline:\n  branch: trunk\n  jobs: 2\n")
	for i := range 3 {
		f := writeRun(t, dir, fmt.Sprintf("trunk-%d", i), "trunk", model.EventPush, 0, [3]float64{1, 1, 1})
		vars := actionVars(t, "push", "push.json", "refs/heads/trunk", map[string]string{"results-file": f, "store-dir": store, "config": cfg})
		// push.json names master the default branch: only the config
		// makes this push a baseline run.
		if code, stdout, stderr := runActionInProcess(t, vars); code != 0 || !strings.Contains(stderr, "recorded run trunk-") {
			t.Fatalf("baseline %d: exit %d, want 0 and the run recorded\n%s\n%s", i, code, stdout, stderr)
		}
	}
	pr := writeRun(t, dir, "pr-1", "changes", model.EventPullRequest, e2ePR, [3]float64{1.25, 1, 1.3})
	tests := []struct {
		name, threshold string
		code            int
	}{
		{"the config's 50% default", "", 0},
		{"the threshold input wins", "10", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := fakegithub.New(t, "ghs_tok")
			// pull_request.opened.json names master the default branch; the
			// config's baseline.branch (trunk) holds the history.
			vars := actionVars(t, "pull_request", "pull_request.opened.json", "refs/pull/2/merge", map[string]string{
				"results-file": pr, "store-dir": store, "config": cfg, "github-token": "ghs_tok", "threshold": tt.threshold})
			vars["GITHUB_API_URL"] = fake.URL
			code, stdout, stderr := runActionInProcess(t, vars)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\n%s\n%s", code, tt.code, stdout, stderr)
			}
			summary, _ := os.ReadFile(vars["GITHUB_STEP_SUMMARY"])
			if strings.Contains(string(summary), "softmax") {
				t.Errorf("the ignored softmax benchmark is in the report:\n%s", summary)
			}
			if !strings.Contains(stderr, "baseline branch trunk") {
				t.Errorf("baseline branch not trunk:\n%s", stderr)
			}
			if !strings.Contains(string(summary), "gemm/n=4096") {
				t.Errorf("gemm missing from the report:\n%s", summary)
			}
		})
	}
}

// TestActionFilter checks that the filter input runs only the suites it
// matches.
func TestActionFilter(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "  - name: other\n    command:\n      run: \"echo '{\\\"b\\\": [4, 5, 6]}'\"\n      format: json-samples\n      unit: ms\n")
	tests := []struct {
		filter string
		want   []string
		code   int
	}{
		{"", []string{"js/a", "other/b"}, 0},
		{"^other$", []string{"other/b"}, 0},
		{"^none$", nil, 2},
	}
	for _, tt := range tests {
		t.Run("filter="+tt.filter, func(t *testing.T) {
			vars := actionVars(t, "workflow_dispatch", "workflow_dispatch.json", "refs/heads/main",
				map[string]string{"config": cfg, "filter": tt.filter})
			vars["PERFGATE_TESTBED"] = "t"
			code, stdout, stderr := runActionInProcess(t, vars)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\n%s\n%s", code, tt.code, stdout, stderr)
			}
			if code != 0 {
				if !strings.Contains(stderr, "filter:") {
					t.Errorf("the error does not name the filter input: %s", stderr)
				}
				return
			}
			for _, b := range []string{"js/a", "other/b"} {
				want := strings.Contains(strings.Join(tt.want, " "), b)
				if got := strings.Contains(stdout, " "+b+":"); got != want {
					t.Errorf("%s in the log = %v, want %v\n%s", b, got, want, stdout)
				}
			}
		})
	}
}

// TestActionSpoolOutsideWorkspace checks that a run the database cannot
// take is spooled under RUNNER_TOOL_CACHE, which actions/checkout does not
// clean, and that the step fails with exit 3.
func TestActionSpoolOutsideWorkspace(t *testing.T) {
	dir := t.TempDir()
	f := writeRun(t, dir, "main-0", "master", model.EventPush, 0, [3]float64{1, 1, 1})
	vars := actionVars(t, "push", "push.json", "refs/heads/master", map[string]string{
		"results-file": f, "database-url": "postgres://perf:pw@127.0.0.1:1/perf?sslmode=disable&connect_timeout=5"})
	vars["RUNNER_TOOL_CACHE"] = dir
	code, stdout, stderr := runActionInProcess(t, vars)
	if code != 3 {
		t.Fatalf("exit %d, want 3\n%s\n%s", code, stdout, stderr)
	}
	spooled, _ := filepath.Glob(filepath.Join(dir, "perfgate", "spool", "*.json"))
	if len(spooled) != 1 {
		t.Errorf("%d runs spooled under RUNNER_TOOL_CACHE/perfgate/spool, want 1\n%s", len(spooled), stderr)
	}
}

// TestActionBaselineTestbed checks that baseline.testbed names the runner
// label the pull request is judged against: without it a run on another
// runner of the same GPU finds no comparable baseline.
func TestActionBaselineTestbed(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	plain := writeConfig(t, dir, "")
	pinned := filepath.Join(dir, "pinned.yml")
	if err := os.WriteFile(pinned, []byte(strings.Replace(readFile(t, plain), "suites:", "baseline:\n  testbed: gpu-runner-1\nsuites:", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		f := writeRun(t, dir, fmt.Sprintf("main-%d", i), "master", model.EventPush, 0, [3]float64{1, 1, 1})
		vars := actionVars(t, "push", "push.json", "refs/heads/master", map[string]string{"results-file": f, "store-dir": store})
		if code, stdout, stderr := runActionInProcess(t, vars); code != 0 {
			t.Fatalf("baseline %d: exit %d\n%s\n%s", i, code, stdout, stderr)
		}
	}
	pr := writeRun(t, dir, "pr-1", "changes", model.EventPullRequest, e2ePR, [3]float64{1.25, 1, 1})
	moved, err := resultsjson.Load(pr)
	if err != nil {
		t.Fatal(err)
	}
	moved.Run.Testbed = "gpu-runner-2"
	if err := resultsjson.WriteFile(pr, moved); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, cfg, verdict string
		code               int
	}{
		{"the candidate's own label: no comparable baseline", plain, "inconclusive", 0},
		{"baseline.testbed: judged against gpu-runner-1", pinned, "fail", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := fakegithub.New(t, "ghs_tok")
			vars := actionVars(t, "pull_request", "pull_request.opened.json", "refs/pull/2/merge", map[string]string{
				"results-file": pr, "store-dir": store, "config": tt.cfg, "github-token": "ghs_tok"})
			vars["GITHUB_API_URL"] = fake.URL
			code, stdout, stderr := runActionInProcess(t, vars)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\n%s\n%s", code, tt.code, stdout, stderr)
			}
			out, _ := os.ReadFile(vars["GITHUB_OUTPUT"])
			if got := outputs(t, string(out))["verdict"]; got != tt.verdict {
				t.Errorf("verdict %q, want %q", got, tt.verdict)
			}
		})
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestActionConfigDeprecatedKey checks that a config naming the baseline
// jobs by their old key, baseline.runs, still works in the action and
// warns once, as an annotation naming the file and the line.
func TestActionConfigDeprecatedKey(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "baseline:\n  branch: trunk\n  runs: 2\n")
	f := writeRun(t, dir, "trunk-0", "trunk", model.EventPush, 0, [3]float64{1, 1, 1})
	vars := actionVars(t, "push", "push.json", "refs/heads/trunk", map[string]string{"results-file": f, "store-dir": filepath.Join(dir, "store"), "config": cfg})
	code, stdout, stderr := runActionInProcess(t, vars)
	if code != 0 || !strings.Contains(stderr, "recorded run trunk-0") {
		t.Fatalf("exit %d, want 0 and the run recorded\n%s\n%s", code, stdout, stderr)
	}
	want := "::warning title=perfgate%3A deprecated config key::" + cfg + ": line 9: baseline.runs is deprecated: name it baseline.jobs\n"
	if n := strings.Count(stdout+stderr, "is deprecated"); n != 1 || !strings.Contains(stdout, want) {
		t.Errorf("want the one warning %q; stdout:\n%s\nstderr:\n%s", want, stdout, stderr)
	}
}

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/fakegithub"
)

// The end-to-end test of action.yml under a real Actions runner engine:
// nektos/act runs examples/workflows/perfgate.yml, unchanged, in a scratch
// repository, in self-hosted mode (no Docker, no network). The composite
// action builds perfgate from this checkout (uses: perfgate/perfgate@v1 is
// mapped onto it), runs the scratch repository's .perfgate.yml command
// suites, and talks to the fake GitHub API. The outputs are read from act's
// log, as the runner resolved them from the action's outputs: block.
//
// act is found through $PERFGATE_ACT, PATH or $(go env GOPATH)/bin. Without
// it the test skips, unless PERFGATE_REQUIRE_ACT=1 (.ci/run installs act and
// sets it), when it fails.

// actVersion is the act release .ci/run installs.
const actVersion = "0.2.82"

func actBinary(t *testing.T) string {
	t.Helper()
	cands := []string{os.Getenv("PERFGATE_ACT")}
	if p, err := exec.LookPath("act"); err == nil {
		cands = append(cands, p)
	}
	//lint:ignore SA1019 a test wants the toolchain go test was built with, not the go first on PATH
	if out, err := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "env", "GOPATH").Output(); err == nil {
		for _, d := range filepath.SplitList(strings.TrimSpace(string(out))) {
			cands = append(cands, filepath.Join(d, "bin", "act"))
		}
	}
	for _, c := range cands {
		if c == "" {
			continue
		}
		if out, err := exec.Command(c, "--version").Output(); err == nil && strings.Contains(string(out), "act version") {
			return c
		}
	}
	msg := fmt.Sprintf("act not found (go install github.com/nektos/act@v%s, or set PERFGATE_ACT)", actVersion)
	if os.Getenv("PERFGATE_REQUIRE_ACT") == "1" {
		t.Fatal(msg + "; PERFGATE_REQUIRE_ACT=1")
	}
	t.Skip(msg)
	return ""
}

// An actRunner runs the example workflow under act in a scratch repository.
type actRunner struct {
	act, root, repo, store, cache, artifacts string
	fake                                     *fakegithub.Server
	n                                        int
}

// An actEntry is one line of act's --json log.
type actEntry struct {
	Msg        string   `json:"msg"`
	Command    string   `json:"command"`
	RawCommand string   `json:"raw"` // the workflow command as the step printed it
	Name       string   `json:"name"`
	Arg        string   `json:"arg"`
	Step       string   `json:"step"`
	StepID     []string `json:"stepID"`
	Stage      string   `json:"stage"`
	StepResult string   `json:"stepResult"`
	ExecTime   int64    `json:"executionTime"` // nanoseconds
	JobResult  string   `json:"jobResult"`
	Raw        bool     `json:"raw_output"`
}

// runActJSON runs act (started with --json) as cmd, hands each entry of its
// JSON log to each, and returns act's exit code, wall time and output. It
// fails the test if act could not run.
func runActJSON(t *testing.T, cmd *exec.Cmd, each func(actEntry)) (code int, wall time.Duration, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	wall = time.Since(start)
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out.Bytes()))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var e actEntry
		if json.Unmarshal(sc.Bytes(), &e) == nil {
			each(e)
		}
	}
	return code, wall, out.String(), errb.String()
}

type actResult struct {
	code      int
	jobResult string
	outputs   map[string]string        // the perfgate step's outputs, as the runner set them
	log       string                   // the steps' output
	steps     map[string]string        // step ID path → result
	times     map[string]time.Duration // step ID path → execution time
	wall      time.Duration            // act's whole run
}

// git runs git in the scratch repository.
func (r *actRunner) git(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=perfgate", "-c", "user.email=perfgate@example.com"}, args...)...)
	cmd.Dir = r.repo
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// commitFiles writes files (by path in the repository) and commits them.
func (r *actRunner) commitFiles(t *testing.T, msg string, files map[string]string) string {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(r.repo, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r.git(t, "add", "-A")
	r.git(t, "commit", "-q", "-m", msg)
	return r.git(t, "rev-parse", "HEAD")
}

// commit writes the benchmark output the suites read (two suites, each one
// benchmark of 20 samples with ±2% deterministic noise around base×factor)
// and commits it.
func (r *actRunner) commit(t *testing.T, msg string, gemm, copy float64) string {
	t.Helper()
	samples := func(base float64, phase int) []float64 {
		s := make([]float64, 20)
		for j := range s {
			s[j] = base * (1 + 0.02*math.Sin(float64(j*7+phase)))
		}
		return s
	}
	files := map[string]string{}
	for name, doc := range map[string]map[string][]float64{
		"kernels.json": {"gemm/n=4096": samples(100*gemm, r.n)},
		"io.json":      {"copy/bytes=1GiB": samples(50*copy, r.n+3)},
	} {
		b, _ := json.Marshal(doc)
		files[name] = string(b)
	}
	r.n++
	return r.commitFiles(t, msg, files)
}

// event writes the webhook payload: a testdata payload with this
// repository's branch names and commits.
func (r *actRunner) event(t *testing.T, file string, edit func(p map[string]any)) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "tracker", "action", "testdata", "events", file))
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	if repo, ok := p["repository"].(map[string]any); ok {
		repo["default_branch"] = "main"
	}
	edit(p)
	b, _ = json.Marshal(p)
	r.n++
	path := filepath.Join(filepath.Dir(r.repo), fmt.Sprintf("event%d.json", r.n))
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// run runs act for one event and parses its JSON log.
func (r *actRunner) run(t *testing.T, event, payload string, extra ...string) actResult {
	t.Helper()
	testdata, err := filepath.Abs(filepath.Join("testdata", "act"))
	if err != nil {
		t.Fatal(err)
	}
	args := []string{event, "--json", "-e", payload,
		"-W", filepath.Join(".github", "workflows", "perfgate.yml"),
		"-P", "self-hosted=-self-hosted", "--action-offline-mode", "--action-cache-path", r.cache,
		"--local-repository", "perfgate/perfgate@v1=" + r.root,
		"--local-repository", "actions/setup-go@v5=" + filepath.Join(testdata, "setup-go"),
		"--local-repository", "actions/upload-artifact@v4=" + filepath.Join(testdata, "upload-artifact"),
		"--env", "GITHUB_API_URL=" + r.fake.URL, "--env", "PERFGATE_ACT_ARTIFACTS=" + r.artifacts,
		//lint:ignore SA1019 a test wants the toolchain go test was built with, not the go first on PATH
		"--env", "PERFGATE_ACT_GOROOT=" + runtime.GOROOT(), "--env", "RUNNER_NAME=act-runner-1",
		"--env", "PERFGATE_BUILD_FROM_SOURCE=1", // test this checkout, never a published release
		"-s", "GITHUB_TOKEN=" + e2eToken, "--var", "PERFGATE_STORE_DIR=" + r.store,
	}
	cmd := exec.Command(r.act, append(args, extra...)...)
	cmd.Dir = r.repo
	res := actResult{outputs: map[string]string{}, steps: map[string]string{}, times: map[string]time.Duration{}}
	var log strings.Builder
	var stdout, stderr string
	res.code, res.wall, stdout, stderr = runActJSON(t, cmd, func(e actEntry) {
		switch {
		case e.JobResult != "":
			res.jobResult = e.JobResult
		case e.Command == "set-output" && slices.Equal(e.StepID, []string{"perfgate"}):
			res.outputs[e.Name] = e.Arg
		case e.StepResult != "":
			res.steps[strings.Join(e.StepID, "/")] = e.StepResult
			res.times[strings.Join(e.StepID, "/")] = time.Duration(e.ExecTime)
		case e.Raw:
			log.WriteString(e.Msg)
		}
	})
	res.log = log.String()
	if strings.Contains(res.log, e2eToken) || strings.Contains(stderr, e2eToken) {
		t.Errorf("the token reached the log unmasked")
	}
	t.Logf("act %s: exit %d, job %s, outputs %v", event, res.code, res.jobResult, res.outputs)
	if res.jobResult == "" {
		t.Fatalf("act %s gave no job result (exit %d):\n%s\n%s", event, res.code, stdout, stderr)
	}
	return res
}

// newActRunner makes the scratch repository: the example workflow as a
// user copies it, files (its .perfgate.yml and what that needs) and an
// origin remote naming the repository.
func newActRunner(t *testing.T, act string, files map[string]string) *actRunner {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	r := &actRunner{act: act, root: root, repo: filepath.Join(dir, "repo"), store: filepath.Join(dir, "store"),
		cache: filepath.Join(dir, "act-cache"), artifacts: filepath.Join(dir, "artifacts"), fake: fakegithub.New(t, e2eToken)}
	wf, err := os.ReadFile(filepath.Join(root, "examples", "workflows", "perfgate.yml"))
	if err != nil {
		t.Fatal(err)
	}
	files[".github/workflows/perfgate.yml"] = string(wf)
	for name, body := range files {
		p := filepath.Join(r.repo, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r.git(t, "init", "-q", "-b", "main")
	r.git(t, "remote", "add", "origin", "https://github.com/"+e2eRepo+".git")
	return r
}

// push runs the workflow for a push of sha to main.
func (r *actRunner) push(t *testing.T, sha string, extra ...string) actResult {
	t.Helper()
	return r.run(t, "push", r.event(t, "push.json", func(p map[string]any) {
		p["ref"], p["after"] = "refs/heads/main", sha
		p["head_commit"] = map[string]any{"id": sha}
	}), extra...)
}

// prEvent writes a pull_request payload for head sha on branch slower.
func (r *actRunner) prEvent(t *testing.T, file, sha string) string {
	t.Helper()
	return r.event(t, file, func(p map[string]any) {
		pr := p["pull_request"].(map[string]any)
		pr["head"].(map[string]any)["sha"] = sha
		pr["head"].(map[string]any)["ref"] = "slower"
		pr["base"].(map[string]any)["ref"] = "main"
	})
}

func TestActionUnderAct(t *testing.T) {
	if testing.Short() {
		t.Skip("runs act, which builds perfgate; skipped with -short")
	}
	act := actBinary(t)
	// Two command suites reading committed benchmark output.
	r := newActRunner(t, act, map[string]string{".perfgate.yml": `suites:
  - name: kernels
    command: {run: cat kernels.json, format: json-samples, unit: us, better: lower}
  - name: io
    command: {run: cat io.json, format: json-samples, unit: us, better: lower}
`})
	fake := r.fake

	push := func(t *testing.T, sha string) actResult { return r.push(t, sha) }
	t.Run("push to main records the baseline", func(t *testing.T) {
		for i := range 2 {
			sha := r.commit(t, fmt.Sprintf("main %d", i), 1, 1)
			res := push(t, sha)
			if res.code != 0 || res.jobResult != "success" {
				t.Fatalf("push %d: exit %d, job %s\n%s", i, res.code, res.jobResult, res.log)
			}
			if !strings.Contains(res.log, "recorded run "+res.outputs["run-id"]) || res.outputs["run-id"] == "" {
				t.Errorf("push %d: run %q not recorded:\n%s", i, res.outputs["run-id"], res.log)
			}
			if res.outputs["verdict"] == "" || res.outputs["regressions"] != "0" {
				t.Errorf("push %d: outputs %v", i, res.outputs)
			}
		}
		if n := len(fake.Requests()); n != 0 {
			t.Errorf("pushes made %d GitHub API requests, want none", n)
		}
	})

	r.git(t, "checkout", "-q", "-b", "slower")
	prEvent := r.prEvent
	var commentID int64
	t.Run("pull_request with a regression fails with one comment", func(t *testing.T) {
		sha := r.commit(t, "slower gemm", 1.25, 1)
		res := r.run(t, "pull_request", prEvent(t, "pull_request.opened.json", sha))
		if res.code == 0 || res.jobResult != "failure" {
			t.Fatalf("exit %d, job %s; want the job to fail\n%s", res.code, res.jobResult, res.log)
		}
		if res.steps["perfgate/perfgate"] != "failure" || !strings.Contains(res.log, "perfgate: verdict fail") {
			t.Errorf("the perfgate step: %q, want failure with verdict fail\n%s", res.steps["perfgate/perfgate"], res.log)
		}
		want := map[string]string{"verdict": "fail", "regressions": "1", "improvements": "0"}
		for k, v := range want {
			if res.outputs[k] != v {
				t.Errorf("output %s = %q, want %q", k, res.outputs[k], v)
			}
		}
		if res.outputs["run-id"] == "" {
			t.Error("no run-id output")
		}
		rep, err := os.ReadFile(filepath.Join(r.artifacts, "perfgate-report", filepath.Base(res.outputs["report"])))
		if err != nil || !strings.Contains(string(rep), "gemm/n=4096") {
			t.Errorf("the report artifact (output report %q): %v\n%s", res.outputs["report"], err, rep)
		}
		cs := fake.Comments("Codertocat", "Hello-World", e2ePR)
		if len(cs) != 1 || !strings.HasPrefix(cs[0].Body, "<!-- perfgate:sticky workflow=perfgate job=perfgate -->\n") ||
			!strings.Contains(cs[0].Body, "gemm/n=4096") || !strings.Contains(cs[0].Body, "regression") {
			t.Fatalf("comments = %+v, want one sticky comment naming the regression", cs)
		}
		commentID = cs[0].ID
		sts := fake.Statuses("Codertocat", "Hello-World", sha)
		if len(sts) != 1 || sts[0].State != "failure" || sts[0].Context != "perfgate" ||
			!strings.HasPrefix(*sts[0].Description, "fail: 1 regression") {
			t.Errorf("statuses on %s = %+v, want one failure", sha, sts)
		}
	})

	t.Run("second pull_request updates the comment in place", func(t *testing.T) {
		before := fake.Comments("Codertocat", "Hello-World", e2ePR)
		sha := r.commit(t, "gemm fixed", 1, 1)
		res := r.run(t, "pull_request", prEvent(t, "pull_request.synchronize.json", sha))
		if res.code != 0 || res.jobResult != "success" {
			t.Fatalf("exit %d, job %s; want success\n%s", res.code, res.jobResult, res.log)
		}
		if res.outputs["verdict"] != "pass" || res.outputs["regressions"] != "0" {
			t.Errorf("outputs %v, want verdict pass", res.outputs)
		}
		after := fake.Comments("Codertocat", "Hello-World", e2ePR)
		if len(after) != 1 || after[0].ID != commentID || len(before) != 1 || after[0].Body == before[0].Body ||
			!strings.Contains(after[0].Body, "### perfgate: ✅ No regression") {
			t.Errorf("comments: %d, id %d (first %d); want the one comment updated to the new verdict:\n%s", len(after), after[0].ID, commentID, after[0].Body)
		}
		sts := fake.Statuses("Codertocat", "Hello-World", sha)
		if len(sts) != 1 || sts[0].State != "success" {
			t.Errorf("statuses on %s = %+v, want one success", sha, sts)
		}
	})

	t.Run("workflow_dispatch runs the filtered suites and reports only", func(t *testing.T) {
		r.git(t, "checkout", "-q", "main")
		n := len(fake.Requests())
		res := r.run(t, "workflow_dispatch", r.event(t, "workflow_dispatch.json", func(p map[string]any) {
			p["ref"] = "refs/heads/main"
			p["inputs"] = map[string]any{"filter": "^io$", "threshold": "", "record": false}
		}))
		if res.code != 0 || res.jobResult != "success" {
			t.Fatalf("exit %d, job %s\n%s", res.code, res.jobResult, res.log)
		}
		if !strings.Contains(res.log, "suite io: run 1/1") || strings.Contains(res.log, "suite kernels") {
			t.Errorf("the filter did not select suite io alone:\n%s", res.log)
		}
		if strings.Contains(res.log, "recorded run") {
			t.Errorf("a dispatch without record was recorded:\n%s", res.log)
		}
		if res.outputs["verdict"] != "pass" || strings.Contains(res.log, "missing from the candidate") {
			t.Errorf("outputs %v, want verdict pass, the other suite not judged:\n%s", res.outputs, res.log)
		}
		if len(fake.Requests()) != n {
			t.Errorf("workflow_dispatch made GitHub API requests")
		}
	})
}

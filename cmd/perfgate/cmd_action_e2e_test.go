package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/fakegithub"
	"github.com/perfgate/perfgate/internal/golden"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// The end-to-end test of perfgate action: the built binary, a simulated
// runner environment, real webhook payloads (tracker/action/testdata/events)
// and the fake GitHub API, which checks every request against GitHub's REST
// description.

const (
	e2eToken   = "ghs_e2eSecretToken0123456789"
	e2eRepo    = "Codertocat/Hello-World"
	e2eHeadSHA = "ec26c3e57ca3a959ca5aad62de7213c562f8c821" // pull_request.head.sha in the payloads
	e2ePR      = 2
)

func buildPerfgate(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "perfgate")
	//lint:ignore SA1019 a test wants the toolchain go test was built with, not the go first on PATH
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(gobin, "build", "-buildvcs=false", "-ldflags", "-X main.version=e2e", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// writeRun writes a results file: three benchmarks whose medians are base
// times the factors, with ±2% deterministic noise.
func writeRun(t *testing.T, dir, id, branch, event string, pr int, factors [3]float64) string {
	t.Helper()
	r := &model.Results{Schema: model.Schema, Run: model.Run{
		ID: id, Repo: e2eRepo, Commit: fmt.Sprintf("%040x", len(id)*7919+pr), Branch: branch, PR: pr, Event: event,
		Testbed: "gpu-runner-1", StartedAt: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC),
		Env: map[string]string{model.EnvGPU: "NVIDIA H100 80GB HBM3", model.EnvDriver: "570.86.15", model.EnvCUDA: "12.8"},
	}}
	for i, name := range []string{"gemm/n=4096", "copy/bytes=1GiB", "softmax/n=65536"} {
		var s []float64
		for j := range 20 {
			s = append(s, 100*float64(i+1)*factors[i]*(1+0.02*math.Sin(float64(j*7+len(id)))))
		}
		r.Benchmarks = append(r.Benchmarks, model.Benchmark{Suite: "kernels", Name: name, Unit: "us", Better: model.Lower, Samples: s})
	}
	if event == model.EventPullRequest {
		r.Run.Commit = e2eHeadSHA
	}
	path := filepath.Join(dir, id+".json")
	if err := resultsjson.WriteFile(path, r); err != nil {
		t.Fatal(err)
	}
	return path
}

// e2eRunner runs the binary as a job step would.
type e2eRunner struct {
	bin, dir, storeDir string
	fake               *fakegithub.Server
	runID              int
}

type e2eResult struct {
	code                   int
	stdout, stderr, output string
	summary                string
}

func (r *e2eRunner) run(t *testing.T, event, payload, ref string, inputs map[string]string) e2eResult {
	t.Helper()
	r.runID++
	step := filepath.Join(r.dir, fmt.Sprintf("step%d", r.runID))
	if err := os.MkdirAll(step, 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + r.dir, "GITHUB_ACTIONS=true",
		"GITHUB_EVENT_NAME=" + event, "GITHUB_EVENT_PATH=" + filepath.Join("..", "..", "tracker", "action", "testdata", "events", payload),
		"GITHUB_REPOSITORY=" + e2eRepo, "GITHUB_SHA=0123456789abcdef0123456789abcdef01234567",
		"GITHUB_REF=" + ref, "GITHUB_REF_NAME=" + strings.TrimPrefix(ref, "refs/heads/"),
		"GITHUB_SERVER_URL=https://github.com", "GITHUB_API_URL=" + r.fake.URL, fmt.Sprintf("GITHUB_RUN_ID=%d", 9000+r.runID),
		"GITHUB_WORKFLOW=perfgate", "GITHUB_JOB=perfgate",
		"GITHUB_OUTPUT=" + filepath.Join(step, "output"), "GITHUB_STEP_SUMMARY=" + filepath.Join(step, "summary.md"),
		"RUNNER_TEMP=" + step, "INPUT_GITHUB-TOKEN=" + e2eToken, "INPUT_STORE-DIR=" + r.storeDir,
	}
	for k, v := range inputs {
		env = append(env, "INPUT_"+strings.ToUpper(k)+"="+v)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(r.bin, "action")
	cmd.Env, cmd.Stdout, cmd.Stderr = env, &stdout, &stderr
	err := cmd.Run()
	res := e2eResult{stdout: stdout.String(), stderr: stderr.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		res.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	out, _ := os.ReadFile(filepath.Join(step, "output"))
	sum, _ := os.ReadFile(filepath.Join(step, "summary.md"))
	res.output, res.summary = string(out), string(sum)
	if strings.Contains(strings.ReplaceAll(res.stdout, "::add-mask::"+e2eToken, ""), e2eToken) || strings.Contains(res.stderr, e2eToken) {
		t.Errorf("the token was printed unmasked:\n%s\n%s", res.stdout, res.stderr)
	}
	if !strings.HasPrefix(res.stdout, "::add-mask::"+e2eToken+"\n") {
		t.Errorf("stdout does not start by masking the token:\n%.300s", res.stdout)
	}
	return res
}

// outputs parses a GITHUB_OUTPUT file (name<<DELIM / value / DELIM).
func outputs(t *testing.T, s string) map[string]string {
	t.Helper()
	out := map[string]string{}
	lines := strings.Split(s, "\n")
	for i := 0; i < len(lines); i++ {
		name, delim, ok := strings.Cut(lines[i], "<<")
		if !ok {
			continue
		}
		var val []string
		for i++; i < len(lines) && lines[i] != delim; i++ {
			val = append(val, lines[i])
		}
		out[name] = strings.Join(val, "\n")
	}
	return out
}

// stickyID is the ID of the one comment on the pull request.
func stickyID(t *testing.T, fake *fakegithub.Server) int64 {
	t.Helper()
	cs := fake.Comments("Codertocat", "Hello-World", e2ePR)
	if len(cs) != 1 {
		t.Fatalf("%d comments, want 1", len(cs))
	}
	return cs[0].ID
}

func TestActionEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	dir := t.TempDir()
	fake := fakegithub.New(t, e2eToken)
	r := &e2eRunner{bin: buildPerfgate(t), dir: dir, storeDir: filepath.Join(dir, "store"), fake: fake}
	same := [3]float64{1, 1, 1}

	t.Run("push to the default branch records baselines", func(t *testing.T) {
		for i := range 3 {
			f := writeRun(t, dir, fmt.Sprintf("main-%d", i), "master", model.EventPush, 0, same)
			res := r.run(t, "push", "push.json", "refs/heads/master", map[string]string{"results-file": f})
			if res.code != 0 {
				t.Fatalf("exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
			}
			if !strings.Contains(res.stderr, "recorded run main-") || res.summary == "" {
				t.Errorf("run %d not recorded or no summary:\n%s", i, res.stderr)
			}
		}
		if n := len(fake.Requests()); n != 0 {
			t.Errorf("baseline runs made %d GitHub API requests, want none (summary only)", n)
		}
	})

	pr1 := writeRun(t, dir, "pr-1", "changes", model.EventPullRequest, e2ePR, [3]float64{1.25, 1, 0.8})
	t.Run("first PR run: one comment, failure status, exit 1", func(t *testing.T) {
		res := r.run(t, "pull_request", "pull_request.opened.json", "refs/pull/2/merge", map[string]string{"results-file": pr1})
		if res.code != 1 {
			t.Fatalf("exit %d, want 1\n%s\n%s", res.code, res.stdout, res.stderr)
		}
		out := outputs(t, res.output)
		want := map[string]string{"verdict": "fail", "regressions": "1", "improvements": "1", "run-id": "pr-1"}
		for k, v := range want {
			if out[k] != v {
				t.Errorf("output %s = %q, want %q", k, out[k], v)
			}
		}
		if rep, err := os.ReadFile(out["report"]); err != nil || !strings.Contains(res.summary, string(rep)) || !strings.Contains(res.summary, "gemm/n=4096") {
			t.Errorf("report %q (err %v) is not the job summary, or the summary lacks the regression:\n%s", out["report"], err, res.summary)
		}
		for _, s := range []string{"::error title=perfgate regression%3A kernels/gemm/n=4096::median 99.94 → 124.5 us, +24.5%25", "::group::perfgate: suite kernels (3 benchmarks)", "::endgroup::"} {
			if !strings.Contains(res.stdout, s) {
				t.Errorf("stdout lacks %q:\n%s", s, res.stdout)
			}
		}
		comments := fake.Comments("Codertocat", "Hello-World", e2ePR)
		if len(comments) != 1 || !strings.HasPrefix(comments[0].Body, "<!-- perfgate:sticky workflow=perfgate job=perfgate -->\n") {
			t.Fatalf("comments = %+v, want one sticky comment", comments)
		}
		golden.Check(t, "action_comment.md", comments[0].Body)
		golden.Check(t, "action_log.txt", strings.ReplaceAll(res.stdout, dir, "$TMP"))
		sts := fake.Statuses("Codertocat", "Hello-World", e2eHeadSHA)
		if len(sts) != 1 || sts[0].State != "failure" || sts[0].Context != "perfgate" ||
			*sts[0].TargetURL != "https://github.com/Codertocat/Hello-World/actions/runs/9004" ||
			!strings.HasPrefix(*sts[0].Description, "fail: 1 regression, 1 improvement, 1 unchanged") {
			t.Errorf("statuses = %+v", sts)
		}
	})

	t.Run("second PR run updates the same comment, through a 502", func(t *testing.T) {
		before := fake.Comments("Codertocat", "Hello-World", e2ePR)
		if len(before) != 1 {
			t.Fatalf("%d comments before the second run, want 1", len(before))
		}
		fake.Register(fakegithub.REST("POST", "repos/Codertocat/Hello-World/statuses/"+e2eHeadSHA), fakegithub.ServerError(502))
		pr2 := writeRun(t, dir, "pr-2", "changes", model.EventPullRequest, e2ePR, [3]float64{1.3, 1, 0.8})
		res := r.run(t, "pull_request", "pull_request.synchronize.json", "refs/pull/2/merge", map[string]string{"results-file": pr2})
		if res.code != 1 {
			t.Fatalf("exit %d, want 1\n%s\n%s", res.code, res.stdout, res.stderr)
		}
		after := fake.Comments("Codertocat", "Hello-World", e2ePR)
		if len(after) != 1 || after[0].ID != before[0].ID || after[0].Body == before[0].Body {
			t.Errorf("comments = %d (id %d → %d), want the one comment updated", len(after), before[0].ID, after[0].ID)
		}
		if n := len(fake.Statuses("Codertocat", "Hello-World", e2eHeadSHA)); n != 2 {
			t.Errorf("%d statuses, want 2 (the 502 retried)", n)
		}
	})

	t.Run("a comment GitHub refuses: exit 3 when informational, verdict still written", func(t *testing.T) {
		id := stickyID(t, fake)
		fake.Register(fakegithub.REST("PATCH", fmt.Sprintf("repos/Codertocat/Hello-World/issues/comments/%d", id)), fakegithub.Forbidden())
		res := r.run(t, "pull_request", "pull_request.synchronize.json", "refs/pull/2/merge",
			map[string]string{"results-file": pr1, "fail-on-regression": "false"})
		if res.code != 3 || !strings.Contains(res.stderr, "GitHub could not be updated") {
			t.Errorf("exit %d, want 3 with a clear message\n%s", res.code, res.stderr)
		}
		if out := outputs(t, res.output); out["verdict"] != "fail" || !strings.Contains(res.summary, "gemm/n=4096") {
			t.Errorf("verdict output %q / summary hidden by the comment failure", out["verdict"])
		}
		sts := fake.Statuses("Codertocat", "Hello-World", e2eHeadSHA)
		if last := sts[len(sts)-1]; last.State != "success" || !strings.HasSuffix(*last.Description, "[informational]") {
			t.Errorf("informational status = %s %q", last.State, *last.Description)
		}
	})

	t.Run("a comment GitHub refuses still exits 1 on a regression", func(t *testing.T) {
		id := stickyID(t, fake)
		fake.Register(fakegithub.REST("PATCH", fmt.Sprintf("repos/Codertocat/Hello-World/issues/comments/%d", id)), fakegithub.Forbidden())
		res := r.run(t, "pull_request", "pull_request.synchronize.json", "refs/pull/2/merge", map[string]string{"results-file": pr1})
		if res.code != 1 || !strings.Contains(res.stderr, "GitHub could not be updated") {
			t.Errorf("exit %d, want 1 and the GitHub failure reported\n%s", res.code, res.stderr)
		}
	})

	t.Run("fork PR refused", func(t *testing.T) {
		n := len(fake.Requests())
		res := r.run(t, "pull_request", "pull_request.fork.json", "refs/pull/2/merge", map[string]string{"results-file": pr1})
		if res.code != 3 || !strings.Contains(res.stderr, "fork forker/Hello-World") || !strings.Contains(res.stdout, "::error title=perfgate refused a fork::") {
			t.Errorf("exit %d, want 3 with a clear refusal\n%s\n%s", res.code, res.stdout, res.stderr)
		}
		if len(fake.Requests()) != n || res.output != "" {
			t.Error("a refused fork touched GitHub or wrote outputs")
		}
	})

	t.Run("a push that steps a benchmark lists the change point in the job summary", func(t *testing.T) {
		f := writeRun(t, dir, "main-3", "master", model.EventPush, 0, [3]float64{1.25, 1, 1})
		res := r.run(t, "push", "push.json", "refs/heads/master", map[string]string{"results-file": f})
		if res.code != 0 {
			t.Fatalf("exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
		}
		_, changes, _ := strings.Cut(res.summary, "### perfgate: 1 new change point(s) on master")
		if !strings.Contains(changes, "<code>kernels/gemm/n=4096</code>") || strings.Contains(changes, "copy/bytes") {
			t.Errorf("summary lacks the one new change point of gemm:\n%s", res.summary)
		}
	})
}

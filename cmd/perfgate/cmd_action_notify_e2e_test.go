package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/fakegithub"
	"github.com/perfgate/perfgate/internal/golden"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// notifyPush writes the results of push i to the baseline branch: two
// benchmarks, gemm's median times factor, ±2% deterministic noise, and a
// commit of its own.
func notifyPush(t *testing.T, dir string, i int, factor float64) string {
	t.Helper()
	r := &model.Results{Schema: model.Schema, Run: model.Run{
		ID: fmt.Sprintf("push-%02d", i), Repo: e2eRepo, Commit: notifyCommit(i), Branch: "master", Event: model.EventPush,
		Testbed: "gpu-runner-1", StartedAt: time.Date(2026, 3, 1, i, 0, 0, 0, time.UTC),
	}}
	for k, name := range []string{"gemm/n=4096", "copy/bytes=1GiB"} {
		f := 1.0
		if k == 0 {
			f = factor
		}
		var s []float64
		for j := range 20 {
			s = append(s, 1000*float64(k+1)*f*(1+0.02*math.Sin(float64(j*7+i))))
		}
		r.Benchmarks = append(r.Benchmarks, model.Benchmark{Suite: "kernels", Name: name, Unit: "us", Better: model.Lower, Samples: s})
	}
	path := filepath.Join(dir, r.Run.ID+".json")
	if err := resultsjson.WriteFile(path, r); err != nil {
		t.Fatal(err)
	}
	return path
}

func notifyCommit(i int) string { return fmt.Sprintf("c0ffee%034x", i) }

// TestActionNotifyChanges: the pushes of a history whose sixth run steps
// gemm by +25%, replayed into fresh stores with each notify-changes
// policy against the fake GitHub API.
func TestActionNotifyChanges(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	dir := t.TempDir()
	bin := buildPerfgate(t)
	factors := []float64{1, 1, 1, 1, 1, 1.25, 1.25}
	var files []string
	for i, f := range factors {
		files = append(files, notifyPush(t, dir, i, f))
	}
	// replay records pushes from..to-1 into store, returning the results.
	replay := func(t *testing.T, r *e2eRunner, from, to int, inputs map[string]string) []e2eResult {
		t.Helper()
		var out []e2eResult
		for i := from; i < to; i++ {
			in := map[string]string{"results-file": files[i]}
			for k, v := range inputs {
				in[k] = v
			}
			res := r.run(t, "push", "push.json", "refs/heads/master", in)
			if res.code != 0 {
				t.Fatalf("push %d: exit %d\n%s\n%s", i, res.code, res.stdout, res.stderr)
			}
			out = append(out, res)
		}
		return out
	}
	issueInputs := map[string]string{"notify-changes": "issue", "dashboard-url": "https://codertocat.github.io/Hello-World/"}

	fake := fakegithub.New(t, e2eToken)
	a := &e2eRunner{bin: bin, dir: dir, storeDir: filepath.Join(dir, "store-a"), fake: fake}
	t.Run("pushes without a step: nothing on GitHub", func(t *testing.T) {
		replay(t, a, 0, 5, issueInputs)
		if n := len(fake.Requests()); n != 0 {
			t.Errorf("%d GitHub requests for pushes without a step, want none", n)
		}
	})
	t.Run("the push that steps gemm opens one issue", func(t *testing.T) {
		res := replay(t, a, 5, 6, issueInputs)[0]
		issues := fake.Issues("Codertocat", "Hello-World")
		if len(issues) != 1 {
			t.Fatalf("%d issues, want 1\n%s", len(issues), res.stdout)
		}
		is := issues[0]
		if is.Title != "perfgate: 1 new change point(s) on master at 0123456789ab" || strings.Contains(*is.Body, "copy/bytes") {
			t.Errorf("issue %q:\n%s", is.Title, *is.Body)
		}
		golden.Check(t, "notify_issue.md", *is.Body)
		if !strings.Contains(res.stdout, "perfgate: 1 new change point(s) announced in issue #1: ") {
			t.Errorf("the log does not link the issue:\n%s", res.stdout)
		}
	})
	t.Run("the next push: no second issue", func(t *testing.T) {
		replay(t, a, 6, 7, issueInputs)
		if n := len(fake.Issues("Codertocat", "Hello-World")); n != 1 {
			t.Errorf("%d issues, want 1", n)
		}
	})
	t.Run("the same step found again (a fresh store) is not announced twice", func(t *testing.T) {
		// The issue may be closed by then: closed issues are read too.
		b := &e2eRunner{bin: bin, dir: dir, storeDir: filepath.Join(dir, "store-b"), fake: fake}
		before := len(fake.Requests())
		res := replay(t, b, 0, 7, issueInputs)
		if n := len(fake.Issues("Codertocat", "Hello-World")); n != 1 {
			t.Errorf("%d issues, want 1", n)
		}
		var ops []string
		for _, r := range fake.Requests()[before:] {
			ops = append(ops, r.Operation)
		}
		if strings.Join(ops, " ") != "users/get-authenticated issues/list-for-repo" {
			t.Errorf("requests %q, want the login and one list of issues", ops)
		}
		if !strings.Contains(res[5].summary, "new change point(s) on master") {
			t.Errorf("the job summary lacks the step:\n%s", res[5].summary)
		}
	})

	t.Run("commit-comment: one comment on the step's first commit, once", func(t *testing.T) {
		fake := fakegithub.New(t, e2eToken)
		in := map[string]string{"notify-changes": "commit-comment"}
		c := &e2eRunner{bin: bin, dir: dir, storeDir: filepath.Join(dir, "store-c"), fake: fake}
		replay(t, c, 0, 7, in)
		cs := fake.CommitComments("Codertocat", "Hello-World", notifyCommit(5))
		if len(cs) != 1 || !strings.Contains(cs[0].Body, "<code>kernels/gemm/n=4096</code>") ||
			!strings.Contains(cs[0].Body, "<!-- perfgate:change-point ") {
			t.Fatalf("comments on the step's commit = %+v, want one naming gemm with its marker", cs)
		}
		d := &e2eRunner{bin: bin, dir: dir, storeDir: filepath.Join(dir, "store-d"), fake: fake}
		replay(t, d, 0, 7, in)
		if n := len(fake.CommitComments("Codertocat", "Hello-World", notifyCommit(5))); n != 1 {
			t.Errorf("%d comments after the step was found again, want 1", n)
		}
		for _, r := range fake.Requests() {
			switch r.Operation {
			case "repos/list-comments-for-commit", "repos/create-commit-comment",
				"users/get-authenticated": // whose comments say what was announced
			default:
				t.Errorf("unexpected request %s %s", r.Method, r.Path)
			}
		}
	})

	t.Run("off (the default): the job summary only", func(t *testing.T) {
		fake := fakegithub.New(t, e2eToken)
		e := &e2eRunner{bin: bin, dir: dir, storeDir: filepath.Join(dir, "store-e"), fake: fake}
		res := replay(t, e, 0, 6, nil)
		if n := len(fake.Requests()); n != 0 {
			t.Errorf("%d GitHub requests with notify-changes off, want none", n)
		}
		if !strings.Contains(res[5].summary, "### perfgate: 1 new change point(s) on master") {
			t.Errorf("the job summary lacks the step:\n%s", res[5].summary)
		}
	})
}

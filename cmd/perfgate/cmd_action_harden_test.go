package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/fakegithub"
	"github.com/perfgate/perfgate/tracker/model"
)

// The action under a hostile or failing GitHub (issue 10): deadlines,
// comments created once and only ever ours, nothing injected into the log
// or the outputs file.

// prVars are the variables of a pull_request job judging results against
// the fake GitHub.
func prVars(t *testing.T, fake *fakegithub.Server, results string, inputs map[string]string) map[string]string {
	t.Helper()
	in := map[string]string{"results-file": results, "github-token": "ghs_tok"}
	for k, v := range inputs {
		in[k] = v
	}
	vars := actionVars(t, "pull_request", "pull_request.opened.json", "refs/pull/2/merge", in)
	vars["GITHUB_API_URL"], vars["GITHUB_SERVER_URL"] = fake.URL, "https://github.com"
	return vars
}

// runActionWithin runs the action in-process and fails the test when it
// is still running after limit.
func runActionWithin(t *testing.T, limit time.Duration, vars map[string]string) (code int, stdout, stderr string) {
	t.Helper()
	type result struct {
		code           int
		stdout, stderr string
	}
	done := make(chan result, 1)
	go func() {
		c, o, e := runActionInProcess(t, vars)
		done <- result{c, o, e}
	}()
	select {
	case r := <-done:
		return r.code, r.stdout, r.stderr
	case <-time.After(limit):
		t.Fatalf("the action is still running after %v", limit)
	}
	return 0, "", ""
}

// TestActionGitHubTimeout has GitHub answer the commit status with headers
// and then a body that never ends: the action must give up at
// github-timeout with exit 3, and still record the run (item 1).
func TestActionGitHubTimeout(t *testing.T) {
	fake := fakegithub.New(t, "ghs_tok")
	fake.Register(fakegithub.REST("POST", "repos/Codertocat/Hello-World/statuses/"+e2eHeadSHA), fakegithub.Trickle(100*time.Millisecond))
	pr := writeRun(t, t.TempDir(), "pr-slow", "changes", model.EventPullRequest, e2ePR, [3]float64{1, 1, 1})
	vars := prVars(t, fake, pr, map[string]string{"github-timeout": "1s"})
	code, stdout, stderr := runActionWithin(t, 60*time.Second, vars)
	if code != exitInfra || !strings.Contains(stderr, "no complete answer within 1s (github-timeout") {
		t.Errorf("exit %d, stderr %q; want 3 naming github-timeout\n%s", code, stderr, stdout)
	}
	if got := storedPRRuns(t, vars["INPUT_STORE-DIR"]); got != 1 {
		t.Errorf("%d pull-request runs stored, want the one judged", got)
	}
}

func TestActionTimeoutInputs(t *testing.T) {
	for _, in := range []map[string]string{{"github-timeout": "soon"}, {"database-timeout": "-1s"}, {"github-timeout": "0"}} {
		pr := writeRun(t, t.TempDir(), "pr", "changes", model.EventPullRequest, e2ePR, [3]float64{1, 1, 1})
		vars := actionVars(t, "push", "push.json", "refs/heads/master", map[string]string{"results-file": pr})
		for k, v := range in {
			vars["INPUT_"+strings.ToUpper(k)] = v
			code, _, stderr := runActionInProcess(t, vars)
			if code != exitBadInput || !strings.Contains(stderr, k+":") {
				t.Errorf("%s=%q: exit %d, stderr %q; want 2 naming the input", k, v, code, stderr)
			}
		}
	}
}

// storedPRRuns counts the pull-request runs in the embedded store at dir.
func storedPRRuns(t *testing.T, dir string) int {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, "runs", "*"))
	return len(m)
}

package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/cmd/perfgate/internal/fakegithub"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
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
	if code != cli.ExitInfra || !strings.Contains(stderr, "no complete answer within 1s (github-timeout") {
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
			if code != cli.ExitBadInput || !strings.Contains(stderr, k+":") {
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

const (
	prComments = "repos/Codertocat/Hello-World/issues/2/comments"
	marker     = "<!-- perfgate:sticky workflow=perfgate job=perfgate -->"
)

// TestActionCommentOnce has GitHub fail the comment's create after
// applying it, or before: one comment either way (item 2).
func TestActionCommentOnce(t *testing.T) {
	tests := []struct {
		name  string
		stubs func(*fakegithub.Server)
	}{
		{"applied then answered 500", func(f *fakegithub.Server) { f.Register(fakegithub.REST("POST", prComments), f.AppliedThen(500)) }},
		{"applied then answered 502", func(f *fakegithub.Server) { f.Register(fakegithub.REST("POST", prComments), f.AppliedThen(502)) }},
		{"not applied and answered 503 then created", func(f *fakegithub.Server) {
			f.Register(fakegithub.REST("POST", prComments), fakegithub.ServerError(503))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := fakegithub.New(t, "ghs_tok")
			tt.stubs(fake)
			pr := writeRun(t, t.TempDir(), "pr-1", "changes", model.EventPullRequest, e2ePR, [3]float64{1, 1, 1})
			code, stdout, stderr := runActionWithin(t, 60*time.Second, prVars(t, fake, pr, nil))
			if code != 0 {
				t.Errorf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			if cs := fake.Comments("Codertocat", "Hello-World", e2ePR); len(cs) != 1 {
				t.Errorf("%d comments, want 1", len(cs))
			}
		})
	}
}

// TestActionConcurrentJobs runs two jobs of one pull request at once, both
// listing the comments before either creates one: they converge on one
// comment (item 2).
func TestActionConcurrentJobs(t *testing.T) {
	fake := fakegithub.New(t, "ghs_tok")
	together := fake.Barrier(2)
	fake.Register(fakegithub.REST("GET", prComments), together)
	fake.Register(fakegithub.REST("GET", prComments), together)
	pr := writeRun(t, t.TempDir(), "pr-1", "changes", model.EventPullRequest, e2ePR, [3]float64{1, 1, 1})
	codes := make(chan int, 2)
	for range 2 {
		vars := prVars(t, fake, pr, nil)
		go func() {
			code, _, _ := runActionInProcess(t, vars)
			codes <- code
		}()
	}
	for range 2 {
		select {
		case code := <-codes:
			if code != 0 {
				t.Errorf("exit %d", code)
			}
		case <-time.After(60 * time.Second):
			t.Fatal("a job is still running after 60 s")
		}
	}
	cs := fake.Comments("Codertocat", "Hello-World", e2ePR)
	if len(cs) != 1 || !strings.HasPrefix(cs[0].Body, marker) {
		t.Errorf("%d comments, want the one sticky comment: %+v", len(cs), cs)
	}
	creates := 0
	for _, r := range fake.Requests() {
		if r.Operation == "issues/create-comment" {
			creates++
		}
	}
	if creates != 2 {
		t.Errorf("%d creates, want 2 (the race this test sets up)", creates)
	}
}

// TestActionCommentAuthor checks that only a comment the token's own
// identity wrote is updated: a comment by someone else that starts with
// the marker is left alone (item 5).
func TestActionCommentAuthor(t *testing.T) {
	tests := []struct {
		name      string
		asUser    string // "" : GITHUB_TOKEN
		seedBy    string
		wantCount int
		wantKept  bool // the seeded comment keeps its text
	}{
		{"another user's marker comment is not hijacked", "", "mallory", 2, true},
		{"a personal token's user's own comment is updated", "octo-perf", "octo-perf", 1, false},
		{"with a personal token github-actions[bot]'s comment is not ours", "octo-perf", "github-actions[bot]", 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := fakegithub.New(t, "ghs_tok")
			if tt.asUser != "" {
				fake.AsUser(tt.asUser)
			}
			seeded := *fake.SeedComment("Codertocat", "Hello-World", e2ePR, tt.seedBy, marker+"\nplanted text")
			pr := writeRun(t, t.TempDir(), "pr-1", "changes", model.EventPullRequest, e2ePR, [3]float64{1, 1, 1})
			code, stdout, stderr := runActionWithin(t, 60*time.Second, prVars(t, fake, pr, nil))
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			cs := fake.Comments("Codertocat", "Hello-World", e2ePR)
			if len(cs) != tt.wantCount || (cs[0].ID == seeded.ID && (cs[0].Body == seeded.Body) != tt.wantKept) {
				t.Errorf("comments %+v; want %d, the seeded one kept: %v", cs, tt.wantCount, tt.wantKept)
			}
			for _, r := range fake.Requests() {
				if tt.wantKept && r.Method != "GET" && strings.HasSuffix(r.Path, fmt.Sprint(seeded.ID)) {
					t.Errorf("%s %s on the seeded comment", r.Method, r.Path)
				}
			}
		})
	}
}

// hostileRun is a pull-request run whose id, suite and benchmark names
// try to inject workflow commands and outputs.
func hostileRun(t *testing.T, dir string) string {
	t.Helper()
	r := &model.Results{Schema: model.Schema, Run: model.Run{
		ID: "pr-7\nverdict=pass\nregressions=0\n_GitHubActionsFileCommandDelimeter_\nverdict<<EOF\npass\nEOF", Repo: e2eRepo, Commit: e2eHeadSHA,
		Branch: "changes", PR: e2ePR, Event: model.EventPullRequest, Testbed: "gpu-runner-1",
		StartedAt: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}}
	for _, name := range []string{"::stop-commands::pwned", "x\n::error title=forged::pwned", "y\r::warning::pwned", "z ##[error]pwned"} {
		r.Benchmarks = append(r.Benchmarks, model.Benchmark{Suite: "s\n::notice::pwned", Name: name, Unit: "ns", Better: model.Lower,
			Samples: []float64{1, 2, 3, 4, 5}})
	}
	path := filepath.Join(dir, "hostile.json")
	if err := resultsjson.WriteFile(path, r); err != nil {
		t.Fatal(err)
	}
	return path
}

// commandLines returns the lines of a job log the runner would read as
// workflow commands: split at \n and \r, "::" after leading white space,
// or the legacy "##[" anywhere.
func commandLines(log string) []string {
	var cmds []string
	for _, line := range strings.FieldsFunc(log, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if strings.HasPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "::") || strings.Contains(line, "##[") {
			cmds = append(cmds, line)
		}
	}
	return cmds
}

// parseOutputs reads a GITHUB_OUTPUT file as the runner does: name=value,
// or name<<DELIM, lines, DELIM; the last value of a name wins.
func parseOutputs(t *testing.T, s string) map[string]string {
	t.Helper()
	out := map[string]string{}
	lines := strings.Split(s, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if name, delim, ok := strings.Cut(line, "<<"); ok {
			var val []string
			for i++; i < len(lines) && lines[i] != delim; i++ {
				val = append(val, lines[i])
			}
			out[name] = strings.Join(val, "\n")
			continue
		}
		if name, val, ok := strings.Cut(line, "="); ok {
			out[name] = val
		}
	}
	return out
}

// TestActionHostileNames checks that names and ids cannot reach the log
// as workflow commands (item 3) or the outputs file as values (item 4).
func TestActionHostileNames(t *testing.T) {
	dir := t.TempDir()
	fake := fakegithub.New(t, "ghs_tok")
	path := hostileRun(t, dir)
	vars := prVars(t, fake, path, nil)
	code, stdout, stderr := runActionWithin(t, 60*time.Second, vars)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, line := range commandLines(stdout + "\n" + stderr) {
		name, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "::"), "::")
		name, _, _ = strings.Cut(name, " ")
		switch {
		case strings.Contains(line, "##["):
			t.Errorf("legacy command in the log: %q", line)
		case name != "add-mask" && name != "group" && name != "endgroup":
			t.Errorf("a command perfgate did not mean to issue: %q", line)
		}
	}
	out := parseOutputs(t, readFile(t, vars["GITHUB_OUTPUT"]))
	if out["verdict"] != "inconclusive" || out["regressions"] != "0" || !strings.HasPrefix(out["run-id"], "pr-7\nverdict=pass") {
		t.Errorf("outputs %q; want verdict inconclusive and the whole id as run-id", out)
	}
}

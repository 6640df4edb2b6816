package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/fakegithub"
)

// TestSteerUnderAct steers the gate from a pull request under act, with the
// example workflow as it is (its issue_comment trigger included) and the
// fake GitHub, which answers the permission API and checks every request
// against GitHub's description: a regression fails the check; a reader's
// /perfgate accept is refused and said so, the status unchanged; a
// writer's passes the check without running anything and the one sticky
// comment shows who accepted what and why; /perfgate run runs the suites
// at the pull request's new head (the job's checkout is main, as on
// GitHub) and updates the one sticky comment; the squash merge's push re-baselines
// the accepted benchmarks, and the next pull request at the new level is
// unchanged.
func TestSteerUnderAct(t *testing.T) {
	if testing.Short() {
		t.Skip("runs act, which builds perfgate; skipped with -short")
	}
	r := newActRunner(t, actBinary(t), map[string]string{".perfgate.yml": `suites:
  - name: kernels
    command: {run: cat kernels.json, format: json-samples, unit: us, better: lower}
  - name: io
    command: {run: cat io.json, format: json-samples, unit: us, better: lower}
`})
	fake := r.fake
	const owner, name = "Codertocat", "Hello-World"
	fake.SetPermission(owner, name, "octocat", "write", "maintain")
	fake.SetPermission(owner, name, "mallory", "read", "read")
	for i := range 2 {
		if res := r.push(t, r.commit(t, fmt.Sprintf("main %d", i), 1, 1)); res.code != 0 {
			t.Fatalf("push %d: exit %d\n%s", i, res.code, res.log)
		}
	}
	r.git(t, "checkout", "-q", "-b", "slower")
	head := r.commit(t, "gemm does 25% more work", 1.25, 1)
	base := r.git(t, "rev-parse", "main")
	fake.SetPull(owner, name, fakegithub.Pull{Number: e2ePR, State: "open", HeadSHA: head, HeadRef: "slower", BaseSHA: base, BaseRef: "main"})
	stickies := func(t *testing.T) []fakegithub.Comment {
		t.Helper()
		var out []fakegithub.Comment
		for _, c := range fake.Comments(owner, name, e2ePR) {
			if strings.HasPrefix(c.Body, "<!-- perfgate:sticky workflow=perfgate job=perfgate -->") {
				out = append(out, c)
			}
		}
		return out
	}
	lastStatus := func(t *testing.T, sha string) fakegithub.Status {
		t.Helper()
		sts := fake.Statuses(owner, name, sha)
		if len(sts) == 0 {
			t.Fatalf("no status on %s", sha)
		}
		return sts[len(sts)-1]
	}
	// comment runs the workflow for a new comment on the pull request, as
	// GitHub does: the job's checkout is main, the default branch.
	comment := func(t *testing.T, login, body string) (actResult, int64) {
		t.Helper()
		c := fake.SeedComment(owner, name, e2ePR, login, body)
		r.git(t, "checkout", "-q", "main")
		res := r.run(t, "issue_comment", r.event(t, "issue_comment.pr.json", func(p map[string]any) {
			p["issue"].(map[string]any)["number"] = e2ePR
			cm := p["comment"].(map[string]any)
			cm["id"], cm["body"], cm["html_url"] = c.ID, body, c.HTMLURL
			cm["user"].(map[string]any)["login"] = login
		}))
		return res, c.ID
	}

	t.Run("the regression fails the check", func(t *testing.T) {
		res := r.run(t, "pull_request", r.prEvent(t, "pull_request.opened.json", head))
		if res.code == 0 || res.outputs["verdict"] != "fail" || lastStatus(t, head).State != "failure" || len(stickies(t)) != 1 {
			t.Fatalf("exit %d, outputs %v, %d sticky comments; want a failed check with one comment\n%s", res.code, res.outputs, len(stickies(t)), res.log)
		}
	})
	sticky := stickies(t)[0]

	t.Run("a reader's accept is refused and said so", func(t *testing.T) {
		n := len(fake.Statuses(owner, name, head))
		res, id := comment(t, "mallory", "/perfgate accept kernels/* it is fine, trust me")
		if res.code != 0 || res.jobResult != "success" {
			t.Fatalf("exit %d, job %s; a refusal is no failure of the job\n%s", res.code, res.jobResult, res.log)
		}
		cs := fake.Comments(owner, name, e2ePR)
		reply := cs[len(cs)-1]
		if reply.User.Login != "github-actions[bot]" || !strings.Contains(reply.Body, "🚫 Refused: @\u200dmallory, perfgate commands need write access") ||
			!strings.Contains(reply.Body, "<code>read</code>") {
			t.Errorf("the last comment is not the refusal:\n%s", reply.Body)
		}
		if got := fake.Reactions(owner, name, id); !slices.Equal(got, []string{"-1"}) {
			t.Errorf("reactions to the command = %v, want [-1]", got)
		}
		if len(fake.Statuses(owner, name, head)) != n || lastStatus(t, head).State != "failure" {
			t.Errorf("the refused command changed the status: %+v", fake.Statuses(owner, name, head))
		}
		if s := stickies(t); len(s) != 1 || s[0].Body != sticky.Body {
			t.Errorf("the refused command changed the sticky comment")
		}
		if !requested(fake, "repos/get-collaborator-permission-level") {
			t.Error("the permission API was not asked")
		}
	})

	t.Run("a maintainer's accept passes the check without running anything", func(t *testing.T) {
		res, id := comment(t, "octocat", "/perfgate accept kernels/* fp32 accumulation: correct, and 25% slower")
		if res.code != 0 || res.jobResult != "success" || strings.Contains(res.log, "suite kernels: run") {
			t.Fatalf("exit %d, job %s; want success without running the suites\n%s", res.code, res.jobResult, res.log)
		}
		st := lastStatus(t, head)
		if st.State != "success" || !strings.HasPrefix(*st.Description, "pass: 1 accepted, 1 unchanged") {
			t.Errorf("status %s %q, want success \"pass: 1 accepted, 1 unchanged …\"", st.State, *st.Description)
		}
		s := stickies(t)
		if len(s) != 1 || s[0].ID != sticky.ID {
			t.Fatalf("%d sticky comments, want the one updated", len(s))
		}
		for _, want := range []string{"☑️ No regression left", "#### ☑️ Accepted regressions (1)", "<code>kernels/gemm/n=4096</code>",
			"accepted by @\u200doctocat (kernels/\\*): fp32 accumulation: correct, and 25% slower",
			"| <code>kernels/\\*</code> | @\u200doctocat |"} {
			if !strings.Contains(s[0].Body, want) {
				t.Errorf("the sticky comment lacks %q:\n%s", want, s[0].Body)
			}
		}
		if got := fake.Reactions(owner, name, id); !slices.Equal(got, []string{"+1"}) {
			t.Errorf("reactions = %v, want [+1]", got)
		}
		sticky = s[0]
	})

	t.Run("/perfgate run runs the head and updates the one comment", func(t *testing.T) {
		// A new push to the pull request, not yet measured: the command
		// runs the head the API names, with the acceptance still applied.
		r.git(t, "checkout", "-q", "slower")
		head = r.commit(t, "gemm does 30% more work", 1.3, 1)
		fake.SetPull(owner, name, fakegithub.Pull{Number: e2ePR, State: "open", HeadSHA: head, HeadRef: "slower", BaseSHA: base, BaseRef: "main"})
		res, id := comment(t, "octocat", "/perfgate run")
		if res.code != 0 || res.jobResult != "success" || !strings.Contains(res.log, "checked out #2's head "+head) ||
			!strings.Contains(res.log, "round 3/3: kernels") {
			t.Fatalf("exit %d, job %s; want the suites run at %s\n%s", res.code, res.jobResult, head, res.log)
		}
		if res.outputs["verdict"] != "pass" {
			t.Errorf("outputs %v, want pass (the regression accepted)", res.outputs)
		}
		s := stickies(t)
		if len(s) != 1 || s[0].ID != sticky.ID || !strings.Contains(s[0].Body, "Accepted regressions (1)") || !regexp.MustCompile(`\| \+(29|30)\.\d% \|`).MatchString(s[0].Body) {
			t.Errorf("%d sticky comments; want the one updated with the head's +29…30%%:\n%s", len(s), s[0].Body)
		}
		if got := fake.Reactions(owner, name, id); !slices.Equal(got, []string{"rocket"}) {
			t.Errorf("reactions = %v, want [rocket]", got)
		}
		if st := lastStatus(t, head); st.State != "success" || !strings.HasPrefix(*st.Description, "pass: 1 accepted") {
			t.Errorf("status on the new head %s %q, want success", st.State, *st.Description)
		}
	})

	t.Run("the merge re-baselines and the next pull request is unchanged", func(t *testing.T) {
		r.git(t, "checkout", "-q", "main")
		r.git(t, "merge", "-q", "--squash", "slower")
		r.git(t, "commit", "-q", "-m", "gemm does 25% more work (#2)")
		merge := r.git(t, "rev-parse", "HEAD")
		fake.SetPull(owner, name, fakegithub.Pull{Number: e2ePR, State: "closed", HeadSHA: head, HeadRef: "slower", BaseSHA: base, BaseRef: "main",
			MergeCommitSHA: merge, MergedAt: time.Now()})
		res := r.push(t, merge)
		if res.code != 0 || !strings.Contains(res.log, `baseline reset "kernels/*"`) || !strings.Contains(res.log, "accepted on #2 by octocat, merged here") {
			t.Fatalf("exit %d; want the accepted benchmarks reset at the merge\n%s", res.code, res.log)
		}
		r.git(t, "checkout", "-q", "-b", "next")
		next := r.commit(t, "unrelated change at the new level", 1.3, 1)
		res = r.run(t, "pull_request", r.event(t, "pull_request.synchronize.json", func(p map[string]any) {
			pr := p["pull_request"].(map[string]any)
			p["number"], pr["number"] = 3, 3
			pr["head"].(map[string]any)["sha"], pr["head"].(map[string]any)["ref"] = next, "next"
			pr["base"].(map[string]any)["ref"] = "main"
		}))
		// n=60/…: the baseline is the merge's job alone (3 rounds of 20
		// samples); the two jobs at the old level no longer count.
		gemm := regexp.MustCompile(`unchanged +kernels/gemm/n=4096: median 1[23]\d\.\d → 1[23]\d\.\d us, .*n=60/60`)
		if res.code != 0 || res.outputs["verdict"] != "pass" || !gemm.MatchString(res.log) {
			t.Errorf("exit %d, outputs %v; want kernels/gemm unchanged against the new level alone\n%s", res.code, res.outputs, res.log)
		}
	})
}

// requested reports whether the fake received a request for the operation.
func requested(fake *fakegithub.Server, op string) bool {
	return slices.ContainsFunc(fake.Requests(), func(q fakegithub.Request) bool { return q.Operation == op })
}

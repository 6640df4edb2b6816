package action

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
)

// memPulls is an in-memory Pulls.
type memPulls struct {
	prs       map[int]PullRequest
	perms     map[string]Permission
	reactions []string
	forCommit int // ForCommit calls
	merged    map[string][]int
}

func (m *memPulls) Get(_ context.Context, _ Repo, n int) (PullRequest, error) { return m.prs[n], nil }
func (m *memPulls) Permission(_ context.Context, _ Repo, user string) (Permission, error) {
	if p, ok := m.perms[user]; ok {
		return p, nil
	}
	return Permission{Permission: "none"}, nil
}
func (m *memPulls) React(_ context.Context, _ Repo, _ int64, c string) error {
	m.reactions = append(m.reactions, c)
	return nil
}
func (m *memPulls) ForCommit(_ context.Context, _ Repo, sha string) ([]PullRequest, error) {
	m.forCommit++
	var out []PullRequest
	for _, n := range m.merged[sha] {
		out = append(out, m.prs[n])
	}
	return out, nil
}

// memSteer is a Store that keeps reports, acceptances and resets.
type memSteer struct {
	memShards
	accs   []model.Acceptance
	resets []model.Reset
}

var (
	_ history.AcceptanceStore = (*memSteer)(nil)
	_ ResetStore              = (*memSteer)(nil)
)

func (s *memSteer) AddAcceptance(_ context.Context, a model.Acceptance) error {
	s.accs = append(s.accs, a)
	return nil
}

func (s *memSteer) Acceptances(_ context.Context, repo string, pr int) ([]model.Acceptance, error) {
	var out []model.Acceptance
	for _, a := range s.accs {
		if a.Repo == repo && (pr == 0 || a.PR == pr) {
			out = append(out, a)
		}
	}
	return out, nil
}

func (s *memSteer) AddReset(_ context.Context, r model.Reset) error {
	s.resets = append(s.resets, r)
	return nil
}

func (s *memSteer) Resets(context.Context) ([]model.Reset, error) { return s.resets, nil }

const headSHA = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"

// steerRun makes the options of a command by author on pull request 2.
func steerRun(body, author string, st *memSteer, pulls *memPulls, cs *syncComments, sts *syncStatuses) RunOptions {
	c, _ := ParseCommand(body)
	c.Author, c.CommentID = author, 77
	p := &Plan{Kind: KindSteer, Repo: Repo{"o", "r"}, PR: 2, BaselineBranch: "main", Marker: Marker("perfgate", "perfgate"),
		RunURL: "https://github.com/o/r/actions/runs/1", Command: &c, FailOnRegression: true}
	return RunOptions{Plan: p, Comment: CommentAlways, Log: &memLog{}, Stdout: io.Discard, Stderr: io.Discard,
		OpenStore: func(context.Context) (Store, func() error, error) { return st, func() error { return nil }, nil },
		GitHub:    &GitHub{Comments: cs, Statuses: sts, Pulls: pulls, Login: func(context.Context) (string, error) { return me, nil }}}
}

func newPulls() *memPulls {
	return &memPulls{
		prs: map[int]PullRequest{2: {Number: 2, State: "open", HeadSHA: headSHA, HeadRef: "slower", HeadRepo: "o/r", BaseRef: "main", BaseRepo: "o/r"}},
		perms: map[string]Permission{"writer": {"write", "write"}, "keeper": {"read", "maintain"}, "reader": {"read", "read"},
			"triager": {"read", "triage"}},
	}
}

// TestSteerRefusals: commands from users without write access, malformed
// commands, closed pull requests and runs of forks are refused with a reply
// and a 👎, and change nothing.
func TestSteerRefusals(t *testing.T) {
	tests := []struct {
		name, body, author, want, reply string
	}{
		{"a reader", "/perfgate accept gemm/*", "reader", "permission", "GitHub's permission API says you have <code>read</code>"},
		{"a triager", "/perfgate run", "triager", "permission", "you have <code>read (role triage)</code>"},
		{"a stranger", "/perfgate accept *", "mallory", "permission", "you have <code>none</code>"},
		{"a stranger's malformed command", "/perfgate frobnicate", "mallory", "permission", "need write access"},
		{"a writer's malformed command", "/perfgate frobnicate", "writer", "malformed", `Not understood (unknown command "frobnicate")`},
		{"a bad glob", "/perfgate accept gemm/[", "writer", "malformed", "Not understood (accept: "},
		{"a closed pull request", "/perfgate accept gemm/*", "writer", "closed", "this pull request is closed"},
		{"a fork's run", "/perfgate run", "keeper", "fork", "comes from the fork <code>forker/r</code>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, pulls, cs, sts := &memSteer{}, newPulls(), &syncComments{}, &syncStatuses{}
			pr := pulls.prs[2]
			switch tt.want {
			case "closed":
				pr.State = "closed"
			case "fork":
				pr.HeadRepo = "forker/r"
			}
			pulls.prs[2] = pr
			out, err := Steer(context.Background(), steerRun(tt.body, tt.author, st, pulls, cs, sts))
			if err != nil || out.Refused != tt.want || out.Run != nil {
				t.Fatalf("Steer = %+v, %v; want refused %q", out, err, tt.want)
			}
			if len(cs.list) != 1 || !strings.Contains(cs.list[0].Body, tt.reply) || strings.Contains(cs.list[0].Body, "perfgate:sticky") {
				t.Errorf("comments %+v, want one reply containing %q", cs.list, tt.reply)
			}
			if len(pulls.reactions) != 1 || pulls.reactions[0] != "-1" || len(st.accs) != 0 || len(sts.all) != 0 {
				t.Errorf("reactions %v, acceptances %v, statuses %v; want -1 and nothing else", pulls.reactions, st.accs, sts.all)
			}
		})
	}
}

// TestSteerRun: a maintainer's run is the check of the head the API names
// (not the event's), forks allowed only by allow-forks.
func TestSteerRun(t *testing.T) {
	st, pulls, cs, sts := &memSteer{}, newPulls(), &syncComments{}, &syncStatuses{}
	o := steerRun("/perfgate run ^gemm$", "keeper", st, pulls, cs, sts)
	out, err := Steer(context.Background(), o)
	if err != nil || out.Run == nil {
		t.Fatalf("Steer = %+v, %v", out, err)
	}
	if r := out.Run; r.Kind != KindCheck || r.HeadSHA != headSHA || r.Branch != "slower" || r.BaseRef != "main" || r.PR != 2 || !r.Record ||
		r.Fork || r.Command != nil || r.Marker != o.Plan.Marker || !r.FailOnRegression {
		t.Errorf("run plan %+v", r)
	}
	if len(pulls.reactions) != 1 || pulls.reactions[0] != "rocket" || len(cs.list) != 0 {
		t.Errorf("reactions %v, comments %v; want a rocket and no reply", pulls.reactions, cs.list)
	}
	pr := pulls.prs[2]
	pr.HeadRepo = "forker/r"
	pulls.prs[2] = pr
	o = steerRun("/perfgate run", "writer", st, pulls, cs, sts)
	o.Plan.AllowForks = true
	if out, err := Steer(context.Background(), o); err != nil || out.Run == nil || !out.Run.Fork {
		t.Errorf("a fork's run with allow-forks: %+v, %v", out, err)
	}
	env := CheckEnv(func(k string) string { return "job:" + k }, out.Run)
	for k, want := range map[string]string{"GITHUB_SHA": headSHA, "GITHUB_EVENT_NAME": "pull_request", "GITHUB_REF": "refs/pull/2/merge",
		"GITHUB_HEAD_REF": "slower", "GITHUB_BASE_REF": "main", "GITHUB_REPOSITORY": "job:GITHUB_REPOSITORY"} {
		if got := env(k); got != want {
			t.Errorf("CheckEnv %s = %q, want %q", k, got, want)
		}
	}
}

// TestSteerAccept: a writer's accept with no stored result is recorded and
// answered so; once the head's result is stored, an accept posts the
// comment and the status again from it, passing, with every acceptance.
func TestSteerAccept(t *testing.T) {
	st, pulls, cs, sts := &memSteer{}, newPulls(), &syncComments{}, &syncStatuses{}
	ctx := context.Background()
	out, err := Steer(ctx, steerRun("/perfgate accept io/* the copy got safer", "keeper", st, pulls, cs, sts))
	if err != nil || out.Refused != "" {
		t.Fatalf("Steer = %+v, %v", out, err)
	}
	if len(st.accs) != 1 || st.accs[0].Who != "keeper" || st.accs[0].Glob != "io/*" || st.accs[0].HeadSHA != headSHA || st.accs[0].Reason != "the copy got safer" {
		t.Errorf("acceptances %+v", st.accs)
	}
	if len(cs.list) != 1 || !strings.Contains(cs.list[0].Body, "No perfgate result of the head <code>ec26c3e57ca3</code> is stored yet") || len(sts.all) != 0 {
		t.Errorf("comments %+v, statuses %v; want the waiting reply and no status", cs.list, sts.all)
	}
	// The check of the head stores its result (run.saveReport).
	c := &compare.Comparison{Options: compare.DefaultOptions(), Results: []compare.Result{
		{Suite: "gemm", Name: "bf16", Unit: "us", Verdict: compare.Regression, Change: 0.25, NBaseline: 60, NCandidate: 60, BaselineMedian: 100, CandidateMedian: 125},
		{Suite: "io", Name: "copy", Unit: "us", Verdict: compare.Regression, Change: 0.3, NBaseline: 60, NCandidate: 60, BaselineMedian: 50, CandidateMedian: 65},
		{Suite: "io", Name: "read", Unit: "us", Verdict: compare.Unchanged, NBaseline: 60, NCandidate: 60, BaselineMedian: 10, CandidateMedian: 10},
	}}
	c.Summary = compare.Summarize(c.Results)
	o := steerRun("/perfgate accept gemm/bf16", "writer", st, pulls, cs, sts)
	(&run{o: o, plan: checkPlan(o.Plan, pulls.prs[2])}).saveReport(ctx, st, c)
	if _, err := Steer(ctx, o); err != nil {
		t.Fatal(err)
	}
	if got := sts.last(); got.State != StateSuccess || !strings.HasPrefix(got.Description, "pass: 2 accepted, 1 unchanged") {
		t.Errorf("status %+v, want success with 2 accepted", got)
	}
	// The acceptance given on a stored result is bounded by the changes it
	// accepted; the one given before any result was stored is not.
	if a := st.accs[1]; len(a.Changes) != 1 || a.Changes["gemm/bf16"] != 0.25 || len(st.accs[0].Changes) != 0 {
		t.Errorf("accepted changes %v and %v, want gemm/bf16 +25%% on the second only", st.accs[1].Changes, st.accs[0].Changes)
	}
	var sticky string
	for _, cm := range cs.list {
		if strings.HasPrefix(cm.Body, o.Plan.Marker) {
			sticky = cm.Body
		}
	}
	for _, want := range []string{"☑️ No regression left", "Accepted regressions (2)", "accepted by @\u200dkeeper (io/\\*): the copy got safer",
		"accepted by @\u200dwriter (gemm/bf16)", "| <code>gemm/bf16</code> | @\u200dwriter |"} {
		if !strings.Contains(sticky, want) {
			t.Errorf("the sticky comment lacks %q:\n%s", want, sticky)
		}
	}
	if strings.Join(pulls.reactions, " ") != "+1 +1" {
		t.Errorf("reactions %v", pulls.reactions)
	}
	// Another job of a matrix answers the same comment: recorded once.
	o.Plan.Command.URL = "https://github.com/o/r/pull/2#issuecomment-77"
	for range 2 {
		if _, err := Steer(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	if len(st.accs) != 3 {
		t.Errorf("%d acceptances after one comment answered twice, want 3", len(st.accs))
	}
}

// TestRebaseline: a push that merged a pull request with acceptances resets
// their benchmarks at its earliest run, once: a re-run of the push adds no
// second reset and asks GitHub nothing; a repository without waiting
// acceptances asks nothing either.
func TestRebaseline(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	st, pulls := &memSteer{}, newPulls()
	pulls.prs[2] = PullRequest{Number: 2, State: "closed", BaseRef: "main", MergedAt: at}
	pulls.prs[5] = PullRequest{Number: 5, State: "open", BaseRef: "main"}
	pulls.merged = map[string][]int{"m3rge": {2, 5}}
	p := &Plan{Kind: KindBaseline, Record: true, Repo: Repo{"o", "r"}, BaselineBranch: "main", HeadSHA: "m3rge"}
	log := &memLog{}
	r := &run{plan: p, o: RunOptions{Plan: p, GitHub: &GitHub{Pulls: pulls}, Log: log, Stderr: io.Discard}}
	runs := []*model.Results{{Run: model.Run{StartedAt: at.Add(2 * time.Minute)}}, {Run: model.Run{StartedAt: at.Add(time.Minute)}}}

	r.rebaseline(ctx, st, runs)
	if pulls.forCommit != 0 {
		t.Errorf("asked GitHub %d times without acceptances", pulls.forCommit)
	}
	st.accs = []model.Acceptance{
		{Repo: "o/r", PR: 2, Glob: "gemm/*", Who: "octocat", Reason: "fp32"},
		{Repo: "o/r", PR: 5, Glob: "io/*", Who: "octocat"}, // not merged yet
		{Repo: "o/other", PR: 2, Glob: "x", Who: "y"},      // another repository's #2
	}
	r.rebaseline(ctx, st, runs)
	want := model.Reset{Repo: "o/r", Glob: "gemm/*", At: at.Add(time.Minute), Who: "octocat", Reason: "accepted on #2 by octocat, merged in m3rge: fp32"}
	if len(st.resets) != 1 || st.resets[0] != want || len(log.notes) != 0 {
		t.Fatalf("resets %+v (notes %v), want %+v", st.resets, log.notes, want)
	}
	r.rebaseline(ctx, st, runs) // a re-run of the push
	if len(st.resets) != 1 || pulls.forCommit != 2 {
		t.Errorf("a re-run: %d resets, %d requests; want still 1 reset (#5 still waits, so GitHub is asked)", len(st.resets), pulls.forCommit)
	}
	st.accs = st.accs[:1]
	r.rebaseline(ctx, st, runs)
	if pulls.forCommit != 2 {
		t.Errorf("asked GitHub with no acceptance waiting")
	}
	r.o.GitHub = nil
	st.accs = append(st.accs, model.Acceptance{Repo: "o/r", PR: 9, Glob: "k", Who: "w"})
	r.rebaseline(ctx, st, runs)
	if len(log.notes) != 1 || !strings.Contains(log.notes[0], "without a github-token") {
		t.Errorf("notes %v, want a warning about the missing token", log.notes)
	}
}

package action

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/report"
	"github.com/perfgate/perfgate/tracker/trend"
)

func TestParseNotifyPolicy(t *testing.T) {
	tests := []struct {
		in      string
		want    NotifyPolicy
		wantErr bool
	}{
		{"", NotifyOff, false}, {"off", NotifyOff, false}, {" issue ", NotifyIssue, false},
		{"commit-comment", NotifyCommitComment, false}, {"comment", "", true}, {"Issue", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseNotifyPolicy(tt.in)
			if got != tt.want || (err != nil) != tt.wantErr {
				t.Errorf("ParseNotifyPolicy(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestStepKeyRoundTrip(t *testing.T) {
	c := trend.Change{Suite: "s", Name: "n --> <x>", Step: trend.Step{Run: model.RunRef{Commit: "abc", Testbed: "h100"}}}
	k := StepKey("o/r", c)
	other := c
	other.Run.Testbed = "a100"
	if StepKey("o/r", other) == k || StepKey("o/r2", c) == k {
		t.Error("the key does not tell testbeds or repositories apart")
	}
	body := "text\n" + report.NoticeMarker(k) + "\n" + report.NoticeMarker("not-hex") + "\n"
	if got := announced([]string{body}); len(got) != 1 || !got[k] {
		t.Errorf("announced = %v, want only %s", got, k)
	}
}

func TestTrendURL(t *testing.T) {
	c := trend.Change{Suite: "kernels", Name: "gemm/n=4096 & (x)", Step: trend.Step{Run: model.RunRef{Testbed: "h100 #1"}}}
	if got := trendURL("", c); got != "" {
		t.Errorf("no dashboard: %q", got)
	}
	want := "https://o.github.io/r/kernels-e98f56f907c45b8a6621bdf148bdb5af.html?q=gemm%2Fn%3D4096+%26+%28x%29&testbed=h100+%231"
	if got := trendURL("https://o.github.io/r/", c); got != want {
		t.Errorf("trendURL = %q, want %q", got, want)
	}
}

// memNotify is a fake CommitComments and Issues.
type memNotify struct {
	comments map[string][]Comment // by commit
	created  int
	issues   []Issue
}

func (m *memNotify) ListCommit(_ context.Context, _ Repo, sha string) ([]Comment, error) {
	return m.comments[sha], nil
}

func (m *memNotify) CreateCommit(_ context.Context, _ Repo, sha, body string) (Comment, error) {
	if m.comments == nil {
		m.comments = map[string][]Comment{}
	}
	m.created++
	c := Comment{ID: int64(m.created), Body: body, Author: me}
	m.comments[sha] = append(m.comments[sha], c)
	return c, nil
}

func (m *memNotify) List(context.Context, Repo, string) ([]Issue, error) { return m.issues, nil }

func (m *memNotify) Create(_ context.Context, _ Repo, title, body string) (Issue, error) {
	is := Issue{Number: len(m.issues) + 1, Title: title, Body: body}
	m.issues = append(m.issues, is)
	return is, nil
}

// memLog keeps annotations.
type memLog struct{ notes []string }

func (l *memLog) Group(string)                  {}
func (l *memLog) EndGroup()                     {}
func (l *memLog) Annotate(level, _, msg string) { l.notes = append(l.notes, level+": "+msg) }

func notifyRun(policy NotifyPolicy, m *memNotify, log *memLog) *run {
	p := &Plan{Kind: KindBaseline, Repo: Repo{"o", "r"}, BaselineBranch: "main", HeadSHA: strings.Repeat("f", 40)}
	return &run{plan: p, o: RunOptions{Plan: p, ServerURL: "https://github.com", Log: log, Stdout: io.Discard,
		Notify: &Notify{Policy: policy, CommitComments: m, Issues: m, Login: func(context.Context) (string, error) { return me, nil }}}}
}

// changes makes n steps of benchmarks named name-i, on commits commit(i).
func changes(n int, name string, commit func(i int) string) []trend.Change {
	var cs []trend.Change
	for i := range n {
		cs = append(cs, trend.Change{Suite: "kernels", Name: fmt.Sprintf("%s-%d", name, i), Unit: "us", Better: model.Lower,
			Step: trend.Step{Run: model.RunRef{ID: fmt.Sprint(i), Commit: commit(i), Testbed: "h100"}, Before: 1, After: 1.2, Change: 0.2, Kind: "regression", P: 1e-6}})
	}
	return cs
}

func sha(i int) string { return fmt.Sprintf("%040x", i+1) }

// TestNotifyCommitMarkersByOthers: a comment by someone else on the
// commit, carrying the step's marker, does not silence the notice (issue
// 28, item 2: markers were read from every comment, so anyone could).
func TestNotifyCommitMarkersByOthers(t *testing.T) {
	cs := changes(1, "gemm", sha)
	m := &memNotify{comments: map[string][]Comment{sha(0): {{ID: 1, Author: "mallory",
		Body: report.NoticeMarker(StepKey("o/r", cs[0]))}}}}
	notifyRun(NotifyCommitComment, m, &memLog{}).notify(context.Background(), cs)
	if m.created != 1 {
		t.Errorf("%d comments made, want 1: another author's marker silenced the notice", m.created)
	}
	// The token's own marker does.
	notifyRun(NotifyCommitComment, m, &memLog{}).notify(context.Background(), cs)
	if m.created != 1 {
		t.Errorf("%d comments after a second notify, want still 1", m.created)
	}
}

// TestNotifyBodyFits: 100 steps with long names make a notice within
// GitHub's 65,536 characters (issue 28, item 8: 102 k, refused), the
// regressions kept first.
func TestNotifyBodyFits(t *testing.T) {
	cs := changes(100, strings.Repeat("very-long-benchmark-name/", 40), func(int) string { return sha(0) })
	cs[99].Kind, cs[99].Change = "improvement", -0.2
	m := &memNotify{}
	notifyRun(NotifyIssue, m, &memLog{}).notify(context.Background(), cs)
	if len(m.issues) != 1 {
		t.Fatalf("%d issues, want 1", len(m.issues))
	}
	body := m.issues[0].Body
	if n := utf8.RuneCountInString(body); n > MaxCommentChars || !strings.Contains(body, "more: see the job summary") {
		t.Errorf("issue body of %d characters (limit %d), pointing to the summary: %v", n, MaxCommentChars, strings.Contains(body, "job summary"))
	}
	if !strings.Contains(body, "-0</code>") || strings.Contains(body, "-99</code>") {
		t.Errorf("the notice does not keep the regressions first")
	}
}

// TestNotifyCommitsCapped: steps on 40 commits (a push job of 40 runs)
// make at most MaxCommitNotices commit comments, each notifying its
// author (issue 28, item 8: 40), and a warning pointing to the summary.
func TestNotifyCommitsCapped(t *testing.T) {
	m, log := &memNotify{}, &memLog{}
	notifyRun(NotifyCommitComment, m, log).notify(context.Background(), changes(40, "gemm", sha))
	if m.created != MaxCommitNotices {
		t.Errorf("%d commit comments, want %d", m.created, MaxCommitNotices)
	}
	if len(log.notes) != 1 || !strings.Contains(log.notes[0], "the job summary lists them all") {
		t.Errorf("annotations %q, want one warning pointing to the job summary", log.notes)
	}
}

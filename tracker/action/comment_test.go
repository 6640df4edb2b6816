package action

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestMarker(t *testing.T) {
	tests := []struct{ workflow, job, want string }{
		{"perf", "gate", "<!-- perfgate:sticky workflow=perf job=gate -->"},
		{"GPU perf --> x", "bench-a100", "<!-- perfgate:sticky workflow=GPU%20perf%20%2D%2D%3E%20x job=bench%2Da100 -->"},
	}
	for _, tt := range tests {
		t.Run(tt.workflow, func(t *testing.T) {
			got := Marker(tt.workflow, tt.job)
			if got != tt.want {
				t.Errorf("Marker = %q, want %q", got, tt.want)
			}
			if strings.Count(got, "--") != 2 || strings.Count(got, ">") != 1 {
				t.Errorf("Marker %q could close the HTML comment early", got)
			}
		})
	}
}

func TestDecideComment(t *testing.T) {
	m := Marker("perf", "gate")
	other := Marker("perf", "other-job")
	existing := []Comment{
		{ID: 1, Body: "> " + m + "\nquoted by a human"},
		{ID: 2, Body: other + "\nthe other job's"},
		{ID: 3, Body: m + "\nours"},
		{ID: 4, Body: m + "\na duplicate from an old race"},
	}
	tests := []struct {
		name     string
		comments []Comment
		policy   CommentPolicy
		changed  bool
		act      CommentAction
		id       int64
	}{
		{"always, none yet", existing[:2], CommentAlways, false, CommentCreate, 0},
		{"always, ours exists", existing, CommentAlways, false, CommentUpdate, 3},
		{"on-change, unchanged, none yet", existing[:2], CommentOnChange, false, CommentSkip, 0},
		{"on-change, changed, none yet", existing[:2], CommentOnChange, true, CommentCreate, 0},
		{"on-change, unchanged, ours exists: still updated", existing, CommentOnChange, false, CommentUpdate, 3},
		{"never", existing, CommentNever, true, CommentSkip, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			act, id := DecideComment(tt.comments, m, tt.policy, tt.changed)
			if act != tt.act || id != tt.id {
				t.Errorf("DecideComment = %s %d, want %s %d", act, id, tt.act, tt.id)
			}
		})
	}
}

// memComments is an in-memory Comments.
type memComments struct{ list []Comment }

var _ Comments = (*memComments)(nil)

func (m *memComments) List(context.Context, Repo, int) ([]Comment, error) { return m.list, nil }
func (m *memComments) Create(_ context.Context, _ Repo, _ int, body string) (Comment, error) {
	c := Comment{ID: int64(len(m.list) + 1), Body: body}
	m.list = append(m.list, c)
	return c, nil
}
func (m *memComments) Update(_ context.Context, _ Repo, id int64, body string) (Comment, error) {
	m.list[id-1].Body = body
	return m.list[id-1], nil
}

func TestPostStickyTwice(t *testing.T) {
	m := Marker("perf", "gate")
	c := &memComments{}
	for i, want := range []CommentAction{CommentCreate, CommentUpdate} {
		body := FitComment(m, strings.Repeat("x", i+1), "")
		act, _, err := PostSticky(context.Background(), c, Repo{"o", "r"}, 1, m, body, CommentAlways, true)
		if err != nil || act != want {
			t.Fatalf("run %d: %s, %v; want %s", i+1, act, err, want)
		}
	}
	if len(c.list) != 1 || c.list[0].Body != m+"\nxx" {
		t.Errorf("comments = %+v, want one updated comment", c.list)
	}
}

func TestFitComment(t *testing.T) {
	m := Marker("perf", "gate")
	line := strings.Repeat("é", 99) + "\n" // multi-byte: the limit counts characters
	tests := []struct {
		name      string
		body      string
		truncated bool
	}{
		{"small", "| a | b |\n", false},
		{"exactly at the limit", strings.Repeat("y", MaxCommentChars-utf8.RuneCountInString(m)-1), false},
		{"over the limit", strings.Repeat(line, 1000), true},
		{"one long line", strings.Repeat("z", 3*MaxCommentChars), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := FitComment(m, tt.body, "The full report is in the job summary: https://x/runs/1")
			if n := utf8.RuneCountInString(got); n > MaxCommentChars {
				t.Errorf("%d characters, over the limit", n)
			}
			if !strings.HasPrefix(got, m+"\n") {
				t.Error("the marker is not first")
			}
			if trunc := strings.Contains(got, "**Truncated**"); trunc != tt.truncated {
				t.Errorf("truncated = %v, want %v", trunc, tt.truncated)
			}
			if tt.truncated && !strings.Contains(got, "https://x/runs/1") {
				t.Error("no pointer to the full report")
			}
			if tt.name == "over the limit" && !strings.Contains(got, strings.TrimSuffix(line, "\n")+"\n\n---") {
				t.Error("not cut at a line boundary")
			}
		})
	}
}

func TestParseCommentPolicy(t *testing.T) {
	for in, want := range map[string]CommentPolicy{"": CommentAlways, "always": CommentAlways, "on-change": CommentOnChange, "never": CommentNever} {
		if got, err := ParseCommentPolicy(in); err != nil || got != want {
			t.Errorf("ParseCommentPolicy(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseCommentPolicy("sometimes"); err == nil || !strings.Contains(err.Error(), "comment:") {
		t.Errorf("err = %v, want one naming the comment input", err)
	}
}

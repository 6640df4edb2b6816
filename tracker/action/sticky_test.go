package action

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

const me = "github-actions[bot]"

func TestDecideComment(t *testing.T) {
	m := Marker("perf", "gate")
	other := Marker("perf", "other-job")
	existing := []Comment{
		{ID: 1, Author: "alice", Body: "> " + m + "\nquoted by a human"},
		{ID: 2, Author: me, Body: other + "\nthe other job's"},
		{ID: 3, Author: "mallory", Body: m + "\nstarts with our marker, but is not ours"},
		{ID: 4, Author: me, Body: m + "\nours"},
		{ID: 5, Author: me, Body: m + "\na duplicate from an old race"},
	}
	tests := []struct {
		name     string
		comments []Comment
		author   string
		policy   CommentPolicy
		changed  bool
		act      CommentAction
		id       int64
	}{
		{"always, none yet", existing[:3], me, CommentAlways, false, CommentCreate, 0},
		{"always, ours exists", existing, me, CommentAlways, false, CommentUpdate, 4},
		{"on-change, unchanged, none yet", existing[:3], me, CommentOnChange, false, CommentSkip, 0},
		{"on-change, changed, none yet", existing[:3], me, CommentOnChange, true, CommentCreate, 0},
		{"on-change, unchanged, ours exists: still updated", existing, me, CommentOnChange, false, CommentUpdate, 4},
		{"never", existing, me, CommentNever, true, CommentSkip, 0},
		{"a marker comment by another author is never ours", existing[2:3], me, CommentAlways, false, CommentCreate, 0},
		{"no known identity: nothing is ours", existing, "", CommentAlways, false, CommentCreate, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			act, id := DecideComment(tt.comments, m, tt.author, tt.policy, tt.changed)
			if act != tt.act || id != tt.id {
				t.Errorf("DecideComment = %s %d, want %s %d", act, id, tt.act, tt.id)
			}
		})
	}
}

// memComments is an in-memory Comments. failCreate lists what each create
// does: "" succeeds, "applied" stores the comment and fails uncertainly,
// "lost" fails uncertainly without storing it, "denied" fails for sure.
type memComments struct {
	list       []Comment
	nextID     int64
	failCreate []string
	calls      []string
	stale      int // lists that still return nothing (another job's create not seen yet)
}

var _ Comments = (*memComments)(nil)

func (m *memComments) List(context.Context, Repo, int) ([]Comment, error) {
	m.calls = append(m.calls, "list")
	if m.stale > 0 {
		m.stale--
		return nil, nil
	}
	return append([]Comment(nil), m.list...), nil
}

func (m *memComments) Create(_ context.Context, _ Repo, _ int, body string) (Comment, error) {
	m.calls = append(m.calls, "create")
	mode := ""
	if len(m.failCreate) > 0 {
		mode, m.failCreate = m.failCreate[0], m.failCreate[1:]
	}
	if mode == "lost" {
		return Comment{}, &UncertainError{Err: errors.New("502")}
	}
	if mode == "denied" {
		return Comment{}, errors.New("403")
	}
	m.nextID++
	c := Comment{ID: 100 + m.nextID, Body: body, Author: me}
	m.list = append(m.list, c)
	if mode == "applied" {
		return Comment{}, &UncertainError{Err: errors.New("502")}
	}
	return c, nil
}

func (m *memComments) Update(_ context.Context, _ Repo, id int64, body string) (Comment, error) {
	m.calls = append(m.calls, fmt.Sprint("update ", id))
	for i := range m.list {
		if m.list[i].ID == id {
			m.list[i].Body = body
			return m.list[i], nil
		}
	}
	return Comment{}, errors.New("404")
}

func (m *memComments) Delete(_ context.Context, _ Repo, id int64) error {
	m.calls = append(m.calls, fmt.Sprint("delete ", id))
	for i := range m.list {
		if m.list[i].ID == id {
			m.list = append(m.list[:i], m.list[i+1:]...)
			return nil
		}
	}
	return nil
}

func TestStickyPost(t *testing.T) {
	m := Marker("perf", "gate")
	body := m + "\nnew verdict"
	foreign := Comment{ID: 7, Author: "mallory", Body: m + "\nmallory's text"}
	tests := []struct {
		name       string
		existing   []Comment
		failCreate []string
		wantErr    bool
		want       []Comment // the comments afterwards
		wantCalls  string
	}{
		{"create", nil, nil, false, []Comment{{ID: 101, Author: me, Body: body}}, "list create list"},
		{"update ours", []Comment{{ID: 9, Author: me, Body: m + "\nold"}}, nil, false,
			[]Comment{{ID: 9, Author: me, Body: body}}, "list update 9"},
		{"applied but answered 502: listed again, not created twice", nil, []string{"applied"}, false,
			[]Comment{{ID: 101, Author: me, Body: body}}, "list create list list"},
		{"lost twice, then created", nil, []string{"lost", "lost"}, false,
			[]Comment{{ID: 101, Author: me, Body: body}}, "list create list create list create list"},
		{"lost every time: gives up after 3 tries", nil, []string{"lost", "lost", "lost"}, true,
			nil, "list create list create list create list"},
		{"refused for sure: not retried", nil, []string{"denied"}, true, nil, "list create"},
		{"someone else's marker comment is left alone", []Comment{foreign}, nil, false,
			[]Comment{foreign, {ID: 101, Author: me, Body: body}}, "list create list"},
		{"duplicates from an old race are merged into the oldest", []Comment{
			{ID: 3, Author: me, Body: m + "\nold"}, foreign, {ID: 8, Author: me, Body: m + "\nolder race"}}, nil, false,
			[]Comment{{ID: 3, Author: me, Body: body}, foreign}, "list delete 8 update 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &memComments{list: append([]Comment(nil), tt.existing...), failCreate: tt.failCreate}
			s := &Sticky{Comments: c, Repo: Repo{"o", "r"}, PR: 1, Marker: m, Author: me, Policy: CommentAlways,
				Wait: func(context.Context, int) error { return nil }}
			_, _, err := s.Post(context.Background(), body, true)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error: %v", err, tt.wantErr)
			}
			if fmt.Sprint(c.list) != fmt.Sprint(tt.want) {
				t.Errorf("comments\n got %+v\nwant %+v", c.list, tt.want)
			}
			if got := strings.Join(c.calls, " "); got != tt.wantCalls {
				t.Errorf("calls %q, want %q", got, tt.wantCalls)
			}
		})
	}
}

// TestStickyRace runs the second job's create between the first job's
// create and its check for duplicates: both converge on the oldest.
func TestStickyRace(t *testing.T) {
	m := Marker("perf", "gate")
	c := &memComments{stale: 1}
	b := &Sticky{Comments: c, Repo: Repo{"o", "r"}, PR: 1, Marker: m, Author: me, Policy: CommentAlways}
	// Job A created its comment after job B listed the comments.
	if _, err := c.Create(context.Background(), Repo{}, 1, m+"\njob A"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.Post(context.Background(), m+"\njob B", true); err != nil {
		t.Fatal(err)
	}
	if len(c.list) != 1 || c.list[0].ID != 101 || c.list[0].Body != m+"\njob B" {
		t.Errorf("comments = %+v, want job A's (the oldest) with job B's verdict", c.list)
	}
	if got := strings.Join(c.calls, " "); got != "create list create list delete 102 update 101" {
		t.Errorf("calls %q", got)
	}
}

package githubapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/google/go-github/v62/github"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/fakegithub"
	"github.com/perfgate/perfgate/tracker/action"
	"github.com/perfgate/perfgate/tracker/model"
)

const token = "ghs_testtoken"

var repo = action.Repo{Owner: "Codertocat", Name: "Hello-World"}

// newTestClient returns a client of the fake whose waits are recorded, not slept.
func newTestClient(t *testing.T, fake *fakegithub.Server, now time.Time) (*Client, *[]time.Duration) {
	t.Helper()
	var waits []time.Duration
	c, err := New(fake.URL, token, Options{
		Sleep: func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil },
		Now:   func() time.Time { return now },
	})
	if err != nil {
		t.Fatal(err)
	}
	return c, &waits
}

func TestListFollowsPagination(t *testing.T) {
	fake := fakegithub.New(t, token)
	for i := range 250 {
		fake.SeedComment(repo.Owner, repo.Name, 2, "someone", fmt.Sprintf("comment %d", i))
	}
	c, _ := newTestClient(t, fake, time.Now())
	got, err := c.Comments().List(context.Background(), repo, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 250 || got[0].Body != "comment 0" || got[249].Body != "comment 249" {
		t.Fatalf("List returned %d comments (first %q), want 250 in order", len(got), got[0].Body)
	}
	var queries []string
	for _, r := range fake.Requests() {
		queries = append(queries, r.Query)
	}
	want := []string{"per_page=100", "page=2&per_page=100", "page=3&per_page=100"}
	if !slices.Equal(queries, want) {
		t.Errorf("queries = %q, want %q", queries, want)
	}
}

func TestCreateUpdateStatus(t *testing.T) {
	fake := fakegithub.New(t, token)
	c, _ := newTestClient(t, fake, time.Now())
	ctx := context.Background()
	made, err := c.Comments().Create(ctx, repo, 2, "first")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Comments().Update(ctx, repo, made.ID, "second"); err != nil {
		t.Fatal(err)
	}
	if got := fake.Comments(repo.Owner, repo.Name, 2); len(got) != 1 || got[0].Body != "second" {
		t.Errorf("comments = %+v, want one with body %q", got, "second")
	}
	st := action.Status{State: action.StateFailure, Context: "perfgate", Description: "1 regression", TargetURL: "https://github.com/x/y/actions/runs/1"}
	if err := c.Statuses().Create(ctx, repo, "abc123", st); err != nil {
		t.Fatal(err)
	}
	got := fake.Statuses(repo.Owner, repo.Name, "abc123")
	if len(got) != 1 || got[0].State != "failure" || got[0].Context != "perfgate" || *got[0].Description != "1 regression" || *got[0].TargetURL != st.TargetURL {
		t.Errorf("statuses = %+v", got)
	}
}

func TestRetries(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	path := "repos/Codertocat/Hello-World/statuses/abc"
	tests := []struct {
		name    string
		stubs   []fakegithub.Responder
		waits   []time.Duration
		wantErr bool
	}{
		{"502 then ok", []fakegithub.Responder{fakegithub.ServerError(502)}, []time.Duration{2 * time.Second}, false},
		{"500, 503, 504 then ok: exponential backoff",
			[]fakegithub.Responder{fakegithub.ServerError(500), fakegithub.ServerError(503), fakegithub.ServerError(504)},
			[]time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second}, false},
		{"5xx four times: gives up after 4 attempts",
			[]fakegithub.Responder{fakegithub.ServerError(502), fakegithub.ServerError(502), fakegithub.ServerError(502), fakegithub.ServerError(502)},
			[]time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second}, true},
		{"secondary 403 honours Retry-After", []fakegithub.Responder{fakegithub.SecondaryRateLimit(403, 7*time.Second)}, []time.Duration{7 * time.Second}, false},
		{"secondary 429 honours Retry-After", []fakegithub.Responder{fakegithub.SecondaryRateLimit(429, 3*time.Second)}, []time.Duration{3 * time.Second}, false},
		{"secondary without Retry-After waits a minute", []fakegithub.Responder{fakegithub.SecondaryRateLimit(403, 0)}, []time.Duration{time.Minute}, false},
		{"primary waits for x-ratelimit-reset", []fakegithub.Responder{fakegithub.PrimaryRateLimit(now.Add(30 * time.Second))}, []time.Duration{31 * time.Second}, false},
		{"Retry-After beyond MaxWait is not waited", []fakegithub.Responder{fakegithub.SecondaryRateLimit(403, 10*time.Minute)}, nil, true},
		{"permission 403 is not retried", []fakegithub.Responder{fakegithub.Forbidden()}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := fakegithub.New(t, token)
			for _, r := range tt.stubs {
				fake.Register(fakegithub.REST("POST", path), r)
			}
			c, waits := newTestClient(t, fake, now)
			err := c.Statuses().Create(context.Background(), repo, "abc", action.Status{State: "success", Context: "perfgate"})
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error: %v", err, tt.wantErr)
			}
			if !slices.Equal(*waits, tt.waits) {
				t.Errorf("waits = %v, want %v", *waits, tt.waits)
			}
			if err != nil && !errors.As(err, new(*model.InfraError)) {
				t.Errorf("err = %T, want *model.InfraError", err)
			}
			wantStatuses := 1
			if tt.wantErr {
				wantStatuses = 0
			}
			if got := len(fake.Statuses(repo.Owner, repo.Name, "abc")); got != wantStatuses {
				t.Errorf("%d statuses stored, want %d", got, wantStatuses)
			}
		})
	}
}

func TestRateLimitErrorIsTyped(t *testing.T) {
	fake := fakegithub.New(t, token)
	fake.Register(fakegithub.REST("POST", "repos/Codertocat/Hello-World/issues/2/comments"), fakegithub.SecondaryRateLimit(403, time.Hour))
	c, _ := newTestClient(t, fake, time.Now())
	_, err := c.Comments().Create(context.Background(), repo, 2, "x")
	if !errors.As(err, new(*github.AbuseRateLimitError)) {
		t.Errorf("err = %v, want a *github.AbuseRateLimitError inside", err)
	}
}

func TestBadCredentials(t *testing.T) {
	fake := fakegithub.New(t, token)
	c, err := New(fake.URL, "wrong", Options{Sleep: func(context.Context, time.Duration) error { t.Error("slept"); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Comments().List(context.Background(), repo, 2)
	var ge *github.ErrorResponse
	if !errors.As(err, &ge) || ge.Response.StatusCode != http.StatusUnauthorized {
		t.Errorf("err = %v, want a 401 ErrorResponse", err)
	}
}

func TestNewBaseURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "https://api.github.com/"},
		{"https://api.github.com", "https://api.github.com/"},
		{"https://ghe.example.com/api/v3", "https://ghe.example.com/api/v3/"},
		{"https://ghe.example.com/api/v3/", "https://ghe.example.com/api/v3/"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			c, err := New(tt.in, token, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := c.gh.BaseURL.String(); got != tt.want {
				t.Errorf("BaseURL = %q, want %q", got, tt.want)
			}
		})
	}
	if _, err := New("ghe.example.com/api/v3", token, Options{}); err == nil {
		t.Error("New accepted a URL without a scheme")
	}
}

// TestDeadlineCoversTheBody has GitHub send its headers at once and then
// trickle the body: each attempt must end at the per-request deadline with
// a *TimeoutError (an infrastructure failure), never hang (issue 10, item 1).
func TestDeadlineCoversTheBody(t *testing.T) {
	tests := []struct {
		name     string
		method   string
		path     string
		attempts int // stubs to register
		call     func(*Client) error
	}{
		{"list comments", "GET", "repos/Codertocat/Hello-World/issues/2/comments", 1, func(c *Client) error {
			_, err := c.Comments().List(context.Background(), repo, 2)
			return err
		}},
		{"set status", "POST", "repos/Codertocat/Hello-World/statuses/abc", 1, func(c *Client) error {
			return c.Statuses().Create(context.Background(), repo, "abc", action.Status{State: "success", Context: "perfgate"})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := fakegithub.New(t, token)
			for range tt.attempts {
				fake.Register(fakegithub.REST(tt.method, tt.path), fakegithub.Trickle(50*time.Millisecond))
			}
			c, err := New(fake.URL, token, Options{Timeout: 300 * time.Millisecond,
				Sleep: func(context.Context, time.Duration) error { return nil }})
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			start := time.Now()
			go func() { done <- tt.call(c) }()
			select {
			case err := <-done:
				var te *TimeoutError
				if !errors.As(err, &te) || !errors.As(err, new(*model.InfraError)) {
					t.Errorf("err = %v, want a *TimeoutError inside a *model.InfraError", err)
				}
				if el := time.Since(start); el > time.Duration(tt.attempts)*2*time.Second {
					t.Errorf("took %v for %d attempts of 300ms", el, tt.attempts)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("still waiting for GitHub after 30 s with a 300 ms per-request deadline")
			}
		})
	}
}

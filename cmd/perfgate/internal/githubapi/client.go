// Package githubapi implements perfgate's GitHub interfaces
// (tracker/action.Comments, Statuses, CommitComments and Issues) with
// go-github, against the API root the runner names in GITHUB_API_URL
// (https://api.github.com, or https://HOST/api/v3 on GitHub Enterprise
// Server), and makes the clients an action's plan needs (ForPlan).
// Requests are retried a bounded number of times on 5xx answers and rate
// limits (retry.go).
package githubapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/go-github/v62/github"

	"github.com/perfgate/perfgate/tracker/action"
	"github.com/perfgate/perfgate/tracker/model"
)

// Options tune a Client; the zero value is what the action uses.
type Options struct {
	Attempts  int           // tries per request, first included (default 4)
	Backoff   time.Duration // wait before the first retry of a 5xx, doubled after each (default 2s)
	MaxWait   time.Duration // the longest single wait; a rate limit asking for more fails now (default 90s)
	Timeout   time.Duration // each attempt, body included, must end within it (default DefaultTimeout)
	Transport http.RoundTripper
	Sleep     func(ctx context.Context, d time.Duration) error // for tests
	Now       func() time.Time                                 // for tests
}

// A Client talks to one GitHub API root with one token.
type Client struct {
	gh *github.Client
}

// New returns a client for the API root apiURL (GITHUB_API_URL; "" means
// https://api.github.com) authenticating with token.
func New(apiURL, token string, o Options) (*Client, error) {
	if apiURL == "" {
		apiURL = "https://api.github.com"
	}
	base, err := url.Parse(apiURL)
	if err != nil || base.Scheme == "" || base.Host == "" {
		return nil, fmt.Errorf("GITHUB_API_URL: %q is not an absolute URL", apiURL)
	}
	if !strings.HasSuffix(base.Path, "/") {
		base.Path += "/"
	}
	rt := newRetryTransport(o)
	// No http.Client timeout: it would cut the retry waits short. Each
	// attempt, its body included, is bounded by Options.Timeout instead.
	gh := github.NewClient(&http.Client{Transport: rt}).WithAuthToken(token)
	gh.BaseURL = base
	gh.UploadURL = base
	return &Client{gh: gh}, nil
}

// Comments returns the issue-comment calls.
func (c *Client) Comments() *Comments { return &Comments{gh: c.gh} }

// Statuses returns the commit-status calls.
func (c *Client) Statuses() *Statuses { return &Statuses{gh: c.gh} }

// Comments implements action.Comments.
type Comments struct{ gh *github.Client }

var _ action.Comments = (*Comments)(nil)

// List returns every comment on an issue, following the Link header page
// by page (100 per page).
func (c *Comments) List(ctx context.Context, repo action.Repo, issue int) ([]action.Comment, error) {
	opt := &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}}
	var all []action.Comment
	for {
		page, resp, err := c.gh.Issues.ListComments(ctx, repo.Owner, repo.Name, issue, opt)
		if err != nil {
			return nil, apiError(fmt.Sprintf("list comments of %s#%d", repo, issue), err)
		}
		for _, ic := range page {
			all = append(all, comment(ic))
		}
		if resp.NextPage == 0 {
			return all, nil
		}
		opt.Page = resp.NextPage
	}
}

// Create adds a comment to an issue. It is sent once: a 5xx or a timeout
// may come after GitHub applied it, so such a failure is an
// *action.UncertainError for the caller to check by listing the comments,
// never retried here.
func (c *Comments) Create(ctx context.Context, repo action.Repo, issue int, body string) (action.Comment, error) {
	ic, _, err := c.gh.Issues.CreateComment(ctx, repo.Owner, repo.Name, issue, &github.IssueComment{Body: &body})
	if err != nil {
		err = apiError(fmt.Sprintf("comment on %s#%d", repo, issue), err)
		if uncertain(ctx, err) {
			err = &action.UncertainError{Err: err}
		}
		return action.Comment{}, err
	}
	return comment(ic), nil
}

// Delete removes a comment; one already gone is not an error.
func (c *Comments) Delete(ctx context.Context, repo action.Repo, id int64) error {
	resp, err := c.gh.Issues.DeleteComment(ctx, repo.Owner, repo.Name, id)
	if err != nil && (resp == nil || resp.StatusCode != http.StatusNotFound) {
		return apiError(fmt.Sprintf("delete comment %d in %s", id, repo), err)
	}
	return nil
}

// uncertain reports whether a failed write may have been applied: GitHub
// answered 5xx or not at all, and the caller did not give up first.
func uncertain(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	var ge *github.ErrorResponse
	if errors.As(err, &ge) && ge.Response != nil {
		return ge.Response.StatusCode >= 500
	}
	var rl *github.RateLimitError
	var al *github.AbuseRateLimitError
	return !errors.As(err, &rl) && !errors.As(err, &al)
}

// appLogin is who GITHUB_TOKEN, an app installation's token, writes as.
const appLogin = "github-actions[bot]"

// Login returns the login the token writes as: the user of a personal
// token (GET /user); for an app installation's token, which GET /user
// refuses with 403, github-actions[bot] (GITHUB_TOKEN's identity), unless
// override names another app's bot (PERFGATE_GITHUB_LOGIN, say
// my-app[bot]).
func (c *Client) Login(ctx context.Context, override string) (string, error) {
	if override != "" {
		return override, nil
	}
	u, resp, err := c.gh.Users.Get(ctx, "")
	if err == nil {
		return u.GetLogin(), nil
	}
	if resp != nil && resp.StatusCode == http.StatusForbidden {
		return appLogin, nil
	}
	return "", apiError("find the token's own login (GET /user)", err)
}

// Update replaces the body of a comment.
func (c *Comments) Update(ctx context.Context, repo action.Repo, id int64, body string) (action.Comment, error) {
	ic, _, err := c.gh.Issues.EditComment(ctx, repo.Owner, repo.Name, id, &github.IssueComment{Body: &body})
	if err != nil {
		return action.Comment{}, apiError(fmt.Sprintf("update comment %d in %s", id, repo), err)
	}
	return comment(ic), nil
}

func comment(ic *github.IssueComment) action.Comment {
	return action.Comment{ID: ic.GetID(), Body: ic.GetBody(), URL: ic.GetHTMLURL(), Author: ic.GetUser().GetLogin()}
}

// Statuses implements action.Statuses.
type Statuses struct{ gh *github.Client }

var _ action.Statuses = (*Statuses)(nil)

// Create sets a commit status.
func (s *Statuses) Create(ctx context.Context, repo action.Repo, sha string, st action.Status) error {
	rs := &github.RepoStatus{State: &st.State, Context: &st.Context, Description: &st.Description}
	if st.TargetURL != "" {
		rs.TargetURL = &st.TargetURL
	}
	// Setting a status again replaces it (the latest per context wins), so
	// a POST answered 5xx may be retried.
	if _, _, err := s.gh.Repositories.CreateStatus(withRetry5xx(ctx), repo.Owner, repo.Name, sha, rs); err != nil {
		return apiError(fmt.Sprintf("set status %q on %s@%.12s", st.Context, repo, sha), err)
	}
	return nil
}

// apiError wraps a failed call as an infrastructure failure (exit 3) that
// says what GitHub answered.
func apiError(op string, err error) error {
	return &model.InfraError{Op: "github: " + op, Err: err}
}

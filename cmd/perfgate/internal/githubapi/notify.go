package githubapi

import (
	"context"
	"fmt"

	"github.com/google/go-github/v62/github"

	"github.com/perfgate/perfgate/tracker/action"
)

// CommitComments returns the commit-comment calls.
func (c *Client) CommitComments() *CommitComments { return &CommitComments{gh: c.gh} }

// Issues returns the issue calls.
func (c *Client) Issues() *Issues { return &Issues{gh: c.gh} }

// CommitComments implements action.CommitComments.
type CommitComments struct{ gh *github.Client }

var _ action.CommitComments = (*CommitComments)(nil)

// ListCommit returns every comment on a commit, following the Link header
// page by page (100 per page).
func (c *CommitComments) ListCommit(ctx context.Context, repo action.Repo, sha string) ([]action.Comment, error) {
	opt := &github.ListOptions{PerPage: 100}
	var all []action.Comment
	for {
		page, resp, err := c.gh.Repositories.ListCommitComments(ctx, repo.Owner, repo.Name, sha, opt)
		if err != nil {
			return nil, apiError(fmt.Sprintf("list comments of %s@%.12s", repo, sha), err)
		}
		for _, rc := range page {
			all = append(all, action.Comment{ID: rc.GetID(), Body: rc.GetBody(), URL: rc.GetHTMLURL(), Author: rc.GetUser().GetLogin()})
		}
		if resp.NextPage == 0 {
			return all, nil
		}
		opt.Page = resp.NextPage
	}
}

// CreateCommit comments on a commit. It is sent once: a 5xx or a timeout
// may come after GitHub applied it (*action.UncertainError).
func (c *CommitComments) CreateCommit(ctx context.Context, repo action.Repo, sha, body string) (action.Comment, error) {
	rc, _, err := c.gh.Repositories.CreateComment(ctx, repo.Owner, repo.Name, sha, &github.RepositoryComment{Body: &body})
	if err != nil {
		err = apiError(fmt.Sprintf("comment on %s@%.12s", repo, sha), err)
		if uncertain(ctx, err) {
			err = &action.UncertainError{Err: err}
		}
		return action.Comment{}, err
	}
	return action.Comment{ID: rc.GetID(), Body: rc.GetBody(), URL: rc.GetHTMLURL(), Author: rc.GetUser().GetLogin()}, nil
}

// Issues implements action.Issues.
type Issues struct{ gh *github.Client }

var _ action.Issues = (*Issues)(nil)

// List returns the issues, open and closed, that creator opened, newest
// first, at most the latest action.MaxIssuesRead; pull requests, which the
// endpoint also lists, are left out.
func (c *Issues) List(ctx context.Context, repo action.Repo, creator string) ([]action.Issue, error) {
	opt := &github.IssueListByRepoOptions{State: "all", Creator: creator, Sort: "created", Direction: "desc",
		ListOptions: github.ListOptions{PerPage: 100}}
	var all []action.Issue
	for read := 0; ; {
		page, resp, err := c.gh.Issues.ListByRepo(ctx, repo.Owner, repo.Name, opt)
		if err != nil {
			return nil, apiError(fmt.Sprintf("list the issues of %s by %s", repo, creator), err)
		}
		for _, is := range page {
			if !is.IsPullRequest() {
				all = append(all, issue(is))
			}
		}
		if read += len(page); resp.NextPage == 0 || read >= action.MaxIssuesRead {
			return all, nil
		}
		opt.Page = resp.NextPage
	}
}

// Create opens an issue. It is sent once (see CommitComments.CreateCommit).
func (c *Issues) Create(ctx context.Context, repo action.Repo, title, body string) (action.Issue, error) {
	is, _, err := c.gh.Issues.Create(ctx, repo.Owner, repo.Name, &github.IssueRequest{Title: &title, Body: &body})
	if err != nil {
		err = apiError(fmt.Sprintf("open an issue in %s", repo), err)
		if uncertain(ctx, err) {
			err = &action.UncertainError{Err: err}
		}
		return action.Issue{}, err
	}
	return issue(is), nil
}

func issue(is *github.Issue) action.Issue {
	return action.Issue{Number: is.GetNumber(), Title: is.GetTitle(), Body: is.GetBody(), URL: is.GetHTMLURL()}
}

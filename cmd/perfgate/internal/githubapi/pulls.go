package githubapi

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/google/go-github/v62/github"

	"github.com/perfgate/perfgate/tracker/action"
)

// Pulls implements action.Pulls: the pull request, the commenter's
// permission and reactions of a command from a comment, and the pull
// requests a pushed commit merged.
type Pulls struct{ gh *github.Client }

var _ action.Pulls = (*Pulls)(nil)

// Pulls returns the pull-request calls.
func (c *Client) Pulls() *Pulls { return &Pulls{gh: c.gh} }

// Get reads a pull request.
func (p *Pulls) Get(ctx context.Context, repo action.Repo, number int) (action.PullRequest, error) {
	pr, _, err := p.gh.PullRequests.Get(ctx, repo.Owner, repo.Name, number)
	if err != nil {
		return action.PullRequest{}, apiError(fmt.Sprintf("read pull request %s#%d", repo, number), err)
	}
	return pullRequest(pr), nil
}

func pullRequest(pr *github.PullRequest) action.PullRequest {
	return action.PullRequest{
		Number: pr.GetNumber(), State: pr.GetState(),
		HeadSHA: pr.GetHead().GetSHA(), HeadRef: pr.GetHead().GetRef(), HeadRepo: pr.GetHead().GetRepo().GetFullName(),
		BaseSHA: pr.GetBase().GetSHA(), BaseRef: pr.GetBase().GetRef(), BaseRepo: pr.GetBase().GetRepo().GetFullName(),
		MergedAt: pr.GetMergedAt().Time,
	}
}

// Permission asks GET /repos/{owner}/{repo}/collaborators/{username}/permission.
// go-github's RepositoryPermissionLevel lacks role_name (maintain shows as
// write in permission, triage as read), so the answer is read here. A user
// the API does not know (404) has none.
func (p *Pulls) Permission(ctx context.Context, repo action.Repo, user string) (action.Permission, error) {
	u := fmt.Sprintf("repos/%s/%s/collaborators/%s/permission", url.PathEscape(repo.Owner), url.PathEscape(repo.Name), url.PathEscape(user))
	req, err := p.gh.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		return action.Permission{}, err
	}
	var v struct {
		Permission string `json:"permission"`
		RoleName   string `json:"role_name"`
	}
	resp, err := p.gh.Do(ctx, req, &v)
	switch {
	case err != nil && resp != nil && resp.StatusCode == http.StatusNotFound:
		return action.Permission{Permission: "none"}, nil
	case err != nil:
		return action.Permission{}, apiError(fmt.Sprintf("read the permission of %s on %s", user, repo), err)
	}
	return action.Permission{Permission: v.Permission, Role: v.RoleName}, nil
}

// React adds a reaction to an issue comment; reacting twice is no error.
func (p *Pulls) React(ctx context.Context, repo action.Repo, commentID int64, content string) error {
	if _, _, err := p.gh.Reactions.CreateIssueCommentReaction(withRetry5xx(ctx), repo.Owner, repo.Name, commentID, content); err != nil {
		return apiError(fmt.Sprintf("react %s to comment %d in %s", content, commentID, repo), err)
	}
	return nil
}

// ForCommit lists the pull requests associated with a commit, every page.
func (p *Pulls) ForCommit(ctx context.Context, repo action.Repo, sha string) ([]action.PullRequest, error) {
	opt := &github.ListOptions{PerPage: 100}
	var out []action.PullRequest
	for {
		page, resp, err := p.gh.PullRequests.ListPullRequestsWithCommit(ctx, repo.Owner, repo.Name, sha, opt)
		if err != nil {
			return nil, apiError(fmt.Sprintf("list the pull requests of %s@%.12s", repo, sha), err)
		}
		for _, pr := range page {
			out = append(out, pullRequest(pr))
		}
		if resp.NextPage == 0 {
			return out, nil
		}
		opt.Page = resp.NextPage
	}
}

package githubapi

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/fakegithub"
	"github.com/perfgate/perfgate/tracker/action"
)

// TestPulls reads a pull request, the permissions of a writer, a reader, a
// maintainer (permission "write" only through role_name's "maintain" on
// real GitHub; here "read" with role maintain, to see the role counts) and
// a stranger (404), reacts to a comment, and finds the pull request a
// merge commit merged, each request checked against GitHub's description.
func TestPulls(t *testing.T) {
	fake := fakegithub.New(t, token)
	merged := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	fake.SetPull(repo.Owner, repo.Name, fakegithub.Pull{Number: 2, State: "open", HeadSHA: "head2", HeadRef: "slower", BaseSHA: "base2", BaseRef: "main"})
	fake.SetPull(repo.Owner, repo.Name, fakegithub.Pull{Number: 3, State: "closed", HeadSHA: "head3", HeadRef: "f", HeadRepo: "forker/Hello-World",
		BaseRef: "main", MergeCommitSHA: "squash3", MergedAt: merged})
	fake.SetPermission(repo.Owner, repo.Name, "octocat", "write", "write")
	fake.SetPermission(repo.Owner, repo.Name, "reader", "read", "read")
	fake.SetPermission(repo.Owner, repo.Name, "keeper", "read", "maintain")
	c, _ := newTestClient(t, fake, time.Now())
	p, ctx := c.Pulls(), context.Background()

	pr, err := p.Get(ctx, repo, 2)
	want := action.PullRequest{Number: 2, State: "open", HeadSHA: "head2", HeadRef: "slower", HeadRepo: "Codertocat/Hello-World",
		BaseSHA: "base2", BaseRef: "main", BaseRepo: "Codertocat/Hello-World"}
	if err != nil || pr != want {
		t.Errorf("Get(2) = %+v, %v; want %+v", pr, err, want)
	}
	for user, can := range map[string]bool{"octocat": true, "reader": false, "keeper": true, "stranger": false} {
		perm, err := p.Permission(ctx, repo, user)
		if err != nil || perm.CanWrite() != can {
			t.Errorf("Permission(%s) = %+v, %v; want CanWrite %v", user, perm, err, can)
		}
	}
	if perm, _ := p.Permission(ctx, repo, "stranger"); perm.Permission != "none" {
		t.Errorf("a stranger's permission = %+v, want none", perm)
	}
	if err := p.React(ctx, repo, 77, "+1"); err != nil {
		t.Fatal(err)
	}
	if got := fake.Reactions(repo.Owner, repo.Name, 77); !slices.Equal(got, []string{"+1"}) {
		t.Errorf("reactions = %v", got)
	}
	prs, err := p.ForCommit(ctx, repo, "squash3")
	if err != nil || len(prs) != 1 || prs[0].Number != 3 || !prs[0].MergedAt.Equal(merged) || prs[0].HeadRepo != "forker/Hello-World" {
		t.Errorf("ForCommit(squash3) = %+v, %v; want #3, merged", prs, err)
	}
	if prs, err := p.ForCommit(ctx, repo, "unknown"); err != nil || len(prs) != 0 {
		t.Errorf("ForCommit(unknown) = %+v, %v; want none", prs, err)
	}
}

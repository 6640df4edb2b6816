package runmeta

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
)

// Git runs git in dir ("" = the working directory) and returns its
// trimmed standard output. A failure carries git's standard error.
func Git(ctx context.Context, dir string, args ...string) (string, error) {
	if dir != "" {
		args = append([]string{"-C", dir}, args...)
	}
	cmd := exec.CommandContext(ctx, "git", args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

// gitOr is Git's output, or "" when git fails (no checkout, no git): the
// metadata rules then fall through to their next source.
func gitOr(ctx context.Context, dir string, args ...string) string {
	out, err := Git(ctx, dir, args...)
	if err != nil {
		return ""
	}
	return out
}

// RepoRoot returns the top directory of the git checkout holding dir ("" =
// the working directory), or "" when dir is not in one.
func RepoRoot(ctx context.Context, dir string) string {
	return gitOr(ctx, dir, "rev-parse", "--show-toplevel")
}

// CurrentBranch returns the branch checked out in dir, or "" when there is
// none (not a checkout, or a detached HEAD).
func CurrentBranch(ctx context.Context, dir string) string {
	b := gitOr(ctx, dir, "rev-parse", "--abbrev-ref", "HEAD")
	if b == "HEAD" {
		return ""
	}
	return b
}

// originRepo derives owner/name from the origin remote's URL, if any.
func originRepo(ctx context.Context) string {
	u := strings.TrimSuffix(gitOr(ctx, "", "remote", "get-url", "origin"), ".git")
	if u == "" {
		return ""
	}
	u = strings.ReplaceAll(u, ":", "/")
	parts := strings.Split(u, "/")
	if len(parts) < 2 {
		return ""
	}
	return parts[len(parts)-2] + "/" + parts[len(parts)-1]
}

// CheckoutHead checks out sha, a pull request's head as the API named it,
// in dir ("" = the working directory), detached. When the commit is not in
// the clone it first fetches the pull request's head (refs/pull/PR/head)
// from origin; a head that moved since the API was asked is refused. sha
// must be a full hexadecimal commit name: it never reaches git as an
// option.
func CheckoutHead(ctx context.Context, dir string, pr int, sha string) error {
	if !isFullSHA(sha) || pr <= 0 {
		return fmt.Errorf("check out pull request #%d: %q is not a full commit SHA", pr, sha)
	}
	if _, err := Git(ctx, dir, "cat-file", "-e", sha+"^{commit}"); err != nil {
		ref := fmt.Sprintf("+refs/pull/%d/head:refs/remotes/origin/perfgate/pr-%d", pr, pr)
		if _, err := Git(ctx, dir, "fetch", "--no-tags", "origin", ref); err != nil {
			return fmt.Errorf("fetch pull request #%d: %w", pr, err)
		}
		if _, err := Git(ctx, dir, "cat-file", "-e", sha+"^{commit}"); err != nil {
			return fmt.Errorf("pull request #%d's head %.12s is not in what origin has: it moved since; comment again", pr, sha)
		}
	}
	_, err := Git(ctx, dir, "-c", "advice.detachedHead=false", "checkout", "--detach", sha)
	return err
}

func isFullSHA(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

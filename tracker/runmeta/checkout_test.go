package runmeta

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckoutHead: a head the clone lacks is fetched from origin's
// refs/pull/N/head and checked out detached; a head origin no longer has
// (the pull request moved) and a name that is no full SHA (which could
// reach git as an option) are refused.
func TestCheckoutHead(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git:", err)
	}
	ctx := context.Background()
	root := t.TempDir()
	origin, clone := filepath.Join(root, "origin"), filepath.Join(root, "clone")
	git := func(dir string, args ...string) string {
		t.Helper()
		out, err := Git(ctx, dir, append([]string{"-c", "user.name=p", "-c", "user.email=p@example.com"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	git("", "init", "-q", "-b", "main", origin)
	git(origin, "commit", "-q", "--allow-empty", "-m", "main")
	git("", "clone", "-q", origin, clone)
	git(origin, "checkout", "-q", "-b", "pr")
	git(origin, "commit", "-q", "--allow-empty", "-m", "the pull request")
	head := git(origin, "rev-parse", "HEAD")
	git(origin, "update-ref", "refs/pull/7/head", head)

	if err := CheckoutHead(ctx, clone, 7, head); err != nil {
		t.Fatal(err)
	}
	if got := git(clone, "rev-parse", "HEAD"); got != head || CurrentBranch(ctx, clone) != "" {
		t.Errorf("HEAD %s (branch %q), want %s detached", got, CurrentBranch(ctx, clone), head)
	}
	moved := strings.Repeat("ab", 20)
	if err := CheckoutHead(ctx, clone, 7, moved); err == nil || !strings.Contains(err.Error(), "moved since") {
		t.Errorf("a head origin lacks: %v", err)
	}
	for _, bad := range []string{"--upload-pack=touch /tmp/x", "HEAD", head[:12], strings.ToUpper(head)} {
		if err := CheckoutHead(ctx, clone, 7, bad); err == nil || !strings.Contains(err.Error(), "not a full commit SHA") {
			t.Errorf("CheckoutHead(%q) = %v, want refused", bad, err)
		}
	}
}

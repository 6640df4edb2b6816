package runmeta

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

// gitRepo makes a git checkout with one commit on branch feature and
// changes into it; it returns HEAD.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git:", err)
	}
	dir := t.TempDir()
	for _, args := range [][]string{
		{"init", "-q", "-b", "feature"},
		{"-c", "user.name=perfgate", "-c", "user.email=perfgate@example.com", "commit", "-q", "--allow-empty", "-m", "one"},
	} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	t.Chdir(dir)
	head, err := Git(context.Background(), "", "rev-parse", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	return head
}

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// TestResolveBranch: the branch comes from the checkout only for the
// checkout's own commit (issue 11, defect 4: results of main's commit
// ingested on a feature branch were recorded as the feature branch).
func TestResolveBranch(t *testing.T) {
	head := gitRepo(t)
	other := strings.Repeat("c", 40)
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name         string
		given        Given
		vars         map[string]string
		branch, from string
	}{
		{"the checkout's HEAD", Given{}, nil, "feature", "git checkout"},
		{"--commit is HEAD, abbreviated", Given{Commit: head[:10]}, nil, "feature", "git checkout"},
		{"--commit is another commit", Given{Commit: other}, nil, "local", "default: the checkout's HEAD"},
		{"--commit and --branch", Given{Commit: other, Branch: "main"}, nil, "main", "--branch"},
		{"GitHub Actions", Given{}, map[string]string{"GITHUB_SHA": other, "GITHUB_REF_NAME": "main"}, "main", "$GITHUB_REF_NAME"},
		{"a pull request", Given{}, map[string]string{"GITHUB_SHA": other, "GITHUB_HEAD_REF": "fix", "GITHUB_REF_NAME": "7/merge"}, "fix", "$GITHUB_HEAD_REF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, src, err := Resolve(context.Background(), tt.given, env(tt.vars), now)
			if err != nil {
				t.Fatal(err)
			}
			if r.Branch != tt.branch || !strings.HasPrefix(src.Branch, tt.from) {
				t.Errorf("branch %q from %q, want %q from %q…", r.Branch, src.Branch, tt.branch, tt.from)
			}
			if !r.StartedAt.Equal(now) || src.StartedAt != "now" {
				t.Errorf("started_at %v from %q, want %v from now", r.StartedAt, src.StartedAt, now)
			}
		})
	}
}

func TestResolveStartedAt(t *testing.T) {
	gitRepo(t)
	at, err := ParseStartedAt("2024-06-30T23:00:00+02:00")
	if err != nil {
		t.Fatal(err)
	}
	r, src, err := Resolve(context.Background(), Given{StartedAt: at, Testbed: "tb", Repo: "o/r"}, env(nil), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	want := time.Date(2024, 6, 30, 21, 0, 0, 0, time.UTC)
	if !r.StartedAt.Equal(want) || r.StartedAt.Location() != time.UTC || src.StartedAt != "--started-at" {
		t.Errorf("started_at %v (%s), want %v UTC from --started-at", r.StartedAt, src.StartedAt, want)
	}
	line := Describe(&r, src)
	for _, want := range []string{"repo o/r (--repo)", "branch feature (git checkout)", "sha " + r.Commit[:12] + " (git HEAD)",
		"testbed tb (--testbed)", "started_at 2024-06-30T21:00:00Z (--started-at)"} {
		if !strings.Contains(line, want) {
			t.Errorf("Describe = %q, want it to hold %q", line, want)
		}
	}
	for _, bad := range []string{"2024-06-30", "yesterday", "2024-06-30 21:00:00"} {
		if _, err := ParseStartedAt(bad); !model.IsInputError(err) || !strings.Contains(err.Error(), "--started-at") {
			t.Errorf("ParseStartedAt(%q) = %v, want an input error naming --started-at", bad, err)
		}
	}
}

func TestResolveRefused(t *testing.T) {
	gitRepo(t)
	tests := []struct {
		name, flag string
		given      Given
	}{
		{"event", "--event", Given{Event: "push_request"}},
		{"pr", "--pr", Given{PR: -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Resolve(context.Background(), tt.given, env(nil), time.Now())
			if !model.IsInputError(err) || !strings.HasPrefix(err.Error(), tt.flag) {
				t.Errorf("err = %v, want an input error naming %s", err, tt.flag)
			}
		})
	}
}

func TestPRFromRef(t *testing.T) {
	for ref, want := range map[string]int{"refs/pull/42/merge": 42, "refs/heads/main": 0, "refs/pull/x/merge": 0, "": 0} {
		if got := PRFromRef(ref); got != want {
			t.Errorf("PRFromRef(%q) = %d, want %d", ref, got, want)
		}
	}
}

func TestNewID(t *testing.T) {
	a, b := newID(), newID()
	if a == b || len(a) != 36 || a[14] != '4' || !strings.ContainsRune("89ab", rune(a[19])) {
		t.Errorf("newID() = %q, %q; want two distinct version 4 UUIDs", a, b)
	}
}

// TestResolveNoCommit: without --commit or $GITHUB_SHA, the error says
// why there is no commit and how to give one. Just after git init it said
// "not in a git checkout", in a checkout.
func TestResolveNoCommit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git:", err)
	}
	fresh := t.TempDir()
	if out, err := exec.Command("git", "-C", fresh, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	outside := t.TempDir() // under the system's temporary directory, in no checkout
	for _, tt := range []struct {
		name, dir string
		want      []string
	}{
		{"git init, no commit", fresh, []string{"--commit: the git checkout ", " has no commit yet (git init without a commit): commit first (git commit), or pass --commit SHA"}},
		{"no checkout", outside, []string{"--commit: not set, $GITHUB_SHA is unset and this directory is not in a git checkout", "pass --commit SHA"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.dir == outside && RepoRoot(context.Background(), outside) != "" {
				t.Skip("the temporary directory is inside a git checkout")
			}
			t.Chdir(tt.dir)
			_, _, err := Resolve(context.Background(), Given{}, env(nil), time.Now())
			if !model.IsInputError(err) {
				t.Fatalf("err = %v, want an input error", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err = %q, want it to say %q", err, w)
				}
			}
			if _, _, err := Resolve(context.Background(), Given{Commit: strings.Repeat("a", 40)}, env(nil), time.Now()); err != nil {
				t.Errorf("with --commit: %v", err)
			}
		})
	}
}

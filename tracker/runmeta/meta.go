package runmeta

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

// Given is what the user said about a run (flags, inputs); empty fields
// are filled by Resolve.
type Given struct {
	ID, Repo, Commit, Branch, Event, Testbed, Group string
	PR                                              int
	StartedAt                                       time.Time // zero: now
}

// Sources says where each guessed field of a run block came from, e.g.
// "--branch", "$GITHUB_REF_NAME", "git checkout", so that a command can
// print the metadata it used and a wrong guess does not go unseen.
type Sources struct {
	Repo, Commit, Branch, Testbed, StartedAt string
}

// A pick is one candidate value of a field and where it came from.
type pick struct{ value, source string }

// choose returns the first non-empty candidate.
func choose(picks ...pick) pick {
	for _, p := range picks {
		if p.value != "" {
			return p
		}
	}
	return pick{}
}

// Resolve fills the run block of a results document: each field from g,
// else from the GitHub Actions environment, else from the git checkout of
// the working directory, else a default. Bad values are input errors
// naming the flag.
//
// The branch is taken from the checkout only when the commit is the
// checkout's HEAD: results of another commit (--commit or $GITHUB_SHA)
// say nothing about the branch checked out now; their branch is then
// "local" unless named, and Sources says why.
func Resolve(ctx context.Context, g Given, getenv func(string) string, now time.Time) (model.Run, Sources, error) {
	var src Sources
	head := gitOr(ctx, "", "rev-parse", "HEAD")
	commit := choose(pick{g.Commit, model.Flag("commit").String()}, pick{getenv("GITHUB_SHA"), "$GITHUB_SHA"}, pick{head, "git HEAD"})
	branch := choose(pick{g.Branch, model.Flag("branch").String()}, pick{getenv("GITHUB_HEAD_REF"), "$GITHUB_HEAD_REF"},
		pick{getenv("GITHUB_REF_NAME"), "$GITHUB_REF_NAME"})
	if branch.value == "" && commit.value != "" && sameCommit(commit.value, head) {
		branch = choose(pick{CurrentBranch(ctx, ""), "git checkout"})
	}
	if branch.value == "" && head != "" && !sameCommit(commit.value, head) {
		branch = pick{"local", "default: the checkout's HEAD " + model.ShortSHA(head) + " is another commit; name it with " + model.Flag("branch").String()}
	}
	branch = choose(branch, pick{"local", "default"})
	repo := choose(pick{g.Repo, model.Flag("repo").String()}, pick{getenv("GITHUB_REPOSITORY"), "$GITHUB_REPOSITORY"},
		pick{originRepo(ctx), "git remote origin"}, pick{"local/unknown", "default"})
	testbed := choose(pick{g.Testbed, model.Flag("testbed").String()}, pick{getenv("RUNNER_NAME"), "$RUNNER_NAME"}, pick{hostname(), "host name"})
	started := pick{model.Flag("started-at").String(), model.Flag("started-at").String()}
	if g.StartedAt.IsZero() {
		g.StartedAt, started = now, pick{"now", "now"}
	}
	src = Sources{Repo: repo.source, Commit: commit.source, Branch: branch.source, Testbed: testbed.source, StartedAt: started.source}
	r := model.Run{
		ID:        choose(pick{g.ID, ""}, pick{newID(), ""}).value,
		Repo:      repo.value,
		Commit:    commit.value,
		Branch:    branch.value,
		Event:     choose(pick{g.Event, ""}, pick{getenv("GITHUB_EVENT_NAME"), ""}, pick{model.EventLocal, ""}).value,
		PR:        g.PR,
		Testbed:   testbed.value,
		Group:     g.Group,
		StartedAt: g.StartedAt.UTC(),
	}
	if r.Commit == "" {
		return r, src, model.SettingError("commit", "%s", noCommit(ctx))
	}
	return r, src, check(&r, getenv)
}

// noCommit says why no commit was found, and what to do: in a checkout
// without a commit (just after git init) "not in a git checkout" was
// wrong, and sent users looking for a checkout they were in.
func noCommit(ctx context.Context) string {
	give := fmt.Sprintf("pass %s SHA (the full 40-digit SHA of the commit measured)", model.Flag("commit"))
	if root := RepoRoot(ctx, ""); root != "" {
		return fmt.Sprintf("the git checkout %s has no commit yet (git init without a commit): commit first (git commit), or %s", root, give)
	}
	if _, err := exec.LookPath("git"); err != nil {
		return "not set, $GITHUB_SHA is unset and git is not installed: " + give
	}
	return "not set, $GITHUB_SHA is unset and this directory is not in a git checkout: run in the checkout of the code measured, or " + give
}

// check refuses values no results document may hold and fills the pull
// request number from $GITHUB_REF.
func check(r *model.Run, getenv func(string) string) error {
	switch {
	case !slices.Contains(model.Events, r.Event):
		return model.SettingError("event", "%q is not one of %s", r.Event, strings.Join(model.Events, ", "))
	case r.PR < 0:
		return model.SettingError("pr", "must be positive, got %d", r.PR)
	}
	if r.PR == 0 && r.Event == model.EventPullRequest {
		r.PR = PRFromRef(getenv("GITHUB_REF"))
	}
	return nil
}

// ParseStartedAt reads --started-at: an RFC 3339 time such as
// 2025-03-01T12:00:00Z.
func ParseStartedAt(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(s))
	if err != nil {
		return time.Time{}, model.SettingError("started-at", "%q is not an RFC 3339 time such as 2025-03-01T12:00:00Z", s)
	}
	return t, nil
}

// Describe says which metadata a run block holds and where the guessed
// parts came from, in one line for a command's standard error.
func Describe(r *model.Run, s Sources) string {
	return fmt.Sprintf("repo %s (%s), branch %s (%s), sha %s (%s), testbed %s (%s), started_at %s (%s)",
		r.Repo, s.Repo, r.Branch, s.Branch, model.ShortSHA(r.Commit), s.Commit, r.Testbed, s.Testbed,
		r.StartedAt.UTC().Format(time.RFC3339), s.StartedAt)
}

// DefaultRepo is the repository of a run no flag names: $GITHUB_REPOSITORY,
// else the git remote's owner/name.
func DefaultRepo(ctx context.Context, getenv func(string) string) string {
	return choose(pick{getenv("GITHUB_REPOSITORY"), ""}, pick{originRepo(ctx), ""}, pick{"local/unknown", ""}).value
}

// DefaultTestbed is the testbed of a run no flag names: $RUNNER_NAME, else
// the host name.
func DefaultTestbed(getenv func(string) string) string {
	return choose(pick{getenv("RUNNER_NAME"), ""}, pick{hostname(), ""}).value
}

// PRFromRef extracts N from refs/pull/N/merge.
func PRFromRef(ref string) int {
	parts := strings.Split(ref, "/")
	if len(parts) == 4 && parts[0] == "refs" && parts[1] == "pull" {
		n, _ := strconv.Atoi(parts[2])
		return n
	}
	return 0
}

// sameCommit reports whether a (possibly abbreviated, 7+ hex digits)
// commit names the full hash full.
func sameCommit(a, full string) bool {
	a = strings.ToLower(a)
	return full != "" && len(a) >= 7 && strings.HasPrefix(full, a)
}

// newID returns a random (version 4) UUID, the ID of a run no flag names.
func newID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("runmeta: crypto/rand: " + err.Error()) // never fails on supported platforms
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

func hostname() string {
	h, err := os.Hostname()
	if err != nil {
		return "unknown"
	}
	return h
}

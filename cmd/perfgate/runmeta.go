package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/perfgate/perfgate/tracker/model"
)

// runMetaFlags are the flags of every command that produces a results
// document (run, ingest, ab). Empty values are filled from the GitHub Actions
// environment (GITHUB_*), then from git, then from defaults.
type runMetaFlags struct {
	id, repo, commit, branch, event, testbed, group string
	pr                                              int
}

func (m *runMetaFlags) register(fs *flag.FlagSet, e *env) {
	fs.StringVar(&m.id, "run-id", "", "run ID (default: a new UUID)")
	fs.StringVar(&m.repo, "repo", "", "repository owner/name (default: $GITHUB_REPOSITORY, else from the git remote)")
	fs.StringVar(&m.commit, "commit", "", "commit SHA (default: $GITHUB_SHA, else git HEAD)")
	fs.StringVar(&m.branch, "branch", "", "branch (default: $GITHUB_HEAD_REF/$GITHUB_REF_NAME, else the git branch)")
	fs.StringVar(&m.event, "event", "", "event: "+strings.Join(model.Events, ", ")+" (default: $GITHUB_EVENT_NAME, else local)")
	fs.IntVar(&m.pr, "pr", 0, "pull request number (default: none)")
	fs.StringVar(&m.testbed, "testbed", envDefault(e, "PERFGATE_TESTBED", ""), "testbed name, e.g. the runner label (env PERFGATE_TESTBED; default: $RUNNER_NAME, else the host name)")
	fs.StringVar(&m.group, "group", "", "run group tying the shards of one job together")
}

// resolve fills the run block of a results document, checking each value.
func (m *runMetaFlags) resolve(ctx context.Context, e *env, now time.Time) (model.Run, error) {
	r := model.Run{
		ID:        first(m.id, uuid.NewString()),
		Repo:      first(m.repo, defaultRepo(ctx, e)),
		Commit:    first(m.commit, e.Getenv("GITHUB_SHA"), git(ctx, "rev-parse", "HEAD")),
		Branch:    first(m.branch, e.Getenv("GITHUB_HEAD_REF"), e.Getenv("GITHUB_REF_NAME"), git(ctx, "rev-parse", "--abbrev-ref", "HEAD"), "local"),
		Event:     first(m.event, e.Getenv("GITHUB_EVENT_NAME"), model.EventLocal),
		PR:        m.pr,
		Testbed:   first(m.testbed, defaultTestbed(e)),
		Group:     m.group,
		StartedAt: now.UTC(),
	}
	if r.Commit == "" {
		return r, usageError("-commit: not set and not in a git checkout (and $GITHUB_SHA is unset)")
	}
	if !slices.Contains(model.Events, r.Event) {
		return r, usageError("-event: %q is not one of %s", r.Event, strings.Join(model.Events, ", "))
	}
	if r.PR < 0 {
		return r, usageError("-pr: must be positive, got %d", r.PR)
	}
	if r.PR == 0 && r.Event == model.EventPullRequest {
		r.PR = prFromRef(e.Getenv("GITHUB_REF"))
	}
	return r, nil
}

// defaultRepo is the repository of a run no flag names: $GITHUB_REPOSITORY,
// else the git remote's owner/name.
func defaultRepo(ctx context.Context, e *env) string {
	return first(e.Getenv("GITHUB_REPOSITORY"), gitRepo(ctx), "local/unknown")
}

// defaultTestbed is the testbed of a run no flag names: $RUNNER_NAME, else
// the host name.
func defaultTestbed(e *env) string {
	return first(e.Getenv("RUNNER_NAME"), hostname())
}

// prFromRef extracts N from refs/pull/N/merge.
func prFromRef(ref string) int {
	parts := strings.Split(ref, "/")
	if len(parts) == 4 && parts[0] == "refs" && parts[1] == "pull" {
		n, _ := strconv.Atoi(parts[2])
		return n
	}
	return 0
}

func first(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

func git(ctx context.Context, args ...string) string {
	out, err := exec.CommandContext(ctx, "git", args...).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// gitRepo derives owner/name from the origin remote URL, if there is one.
func gitRepo(ctx context.Context) string {
	u := strings.TrimSuffix(git(ctx, "remote", "get-url", "origin"), ".git")
	if u == "" {
		return ""
	}
	u = strings.ReplaceAll(u, ":", "/")
	parts := strings.Split(u, "/")
	if len(parts) < 2 {
		return ""
	}
	return fmt.Sprintf("%s/%s", parts[len(parts)-2], parts[len(parts)-1])
}

func hostname() string {
	h, err := os.Hostname()
	if err != nil {
		return "unknown"
	}
	return h
}

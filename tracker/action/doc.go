// Package action is the logic of perfgate's GitHub Action, free of I/O:
// it decodes the triggering event into a Plan (what to do: check a pull
// request, record a baseline, or only report; which branch is the baseline;
// whether the pull request comes from a fork), decides what happens to the
// sticky pull-request comment, fits comments and status descriptions into
// GitHub's limits, and lists the secrets to mask.
//
// The GitHub calls sit behind the small interfaces declared here (Comments,
// Statuses); the go-github adapter lives in cmd/perfgate/internal/githubapi.
// This package must not import go-github, pgx or cu.
package action

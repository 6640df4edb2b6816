// Package action is the logic of perfgate's GitHub Action, free of I/O:
// it decodes the triggering event into a Plan (what to do: check a pull
// request, record a baseline, or only report; which branch is the baseline;
// whether the pull request comes from a fork), decides what happens to the
// sticky pull-request comment, fits comments and status descriptions into
// GitHub's limits, and lists the secrets to mask. Run is the action's
// whole pipeline once the plan is made: measure, judge (tracker/check, or
// the base side of an A/B), confirm, report, update GitHub, record, and
// the outcome the exit code comes from.
//
// Everything outside sits behind the small interfaces declared here:
// GitHub (Comments, Statuses, and CommitComments and Issues for the
// notices of new change points, notify.go; the go-github adapter lives in
// cmd/perfgate/internal/githubapi), the history (Store), the runner
// (Measurer) and the job's log and files (Log, Files). This package must
// not import go-github, pgx, cu or the runner.
package action

// Package action is the logic of perfgate's GitHub Action, free of I/O:
// it reads the inputs and the environment through the funcs it is given
// (ReadSettings), decodes the triggering event into a Plan (what to do:
// check a pull request, record a baseline, only report, or answer a
// /perfgate command; which branch is the baseline; whether the pull
// request comes from a fork), decides what happens to the sticky
// pull-request comment, fits comments and status descriptions into
// GitHub's limits, and lists the secrets to mask. Run is the action once
// the plan is made: Measure, then the one pipeline of tracker/check
// (judge against the history or the base side of an A/B, apply the pull
// request's acceptances, confirm, publish, record), where publishing is
// the report and GitHub; then what a recorded run starts (the stored
// result for /perfgate accept, re-baselines, notices of change points).
//
// Everything outside sits behind the small interfaces declared here:
// GitHub (Comments, Statuses, Pulls, and CommitComments and Issues for the
// notices of new change points, notify.go; the go-github adapter lives in
// cmd/perfgate/internal/githubapi), the history (Store), the runner
// (Measurer, runner/actionjob) and the job's log and files (Log, Files,
// cmd/perfgate/internal/ghactions, which also reads the event file). The
// config and results files are read by the caller. This package opens no
// file, starts no process and must not import go-github, pgx, cu or the
// runner.
package action

package action

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/report"
)

// Steering the gate from a pull request (docs/action.md, "Steering the
// gate"). A /perfgate command in a comment runs in the base repository's
// context (issue_comment), so nothing in the comment is trusted: the
// commenter's permission is asked of the API before anything is done, and
// the pull request's head, base and fork status are read from the API, not
// from the event.

// A PullRequest is what a command needs of its pull request.
type PullRequest struct {
	Number           int
	State            string // open or closed
	HeadSHA, HeadRef string
	HeadRepo         string // owner/name; "" when the fork was deleted
	BaseSHA, BaseRef string
	BaseRepo         string
	MergedAt         time.Time // zero: not merged
}

// A Permission is a user's access to a repository as the API says it
// (permission: admin, write, read or none; role_name: admin, maintain,
// write, triage, read or a custom role).
type Permission struct{ Permission, Role string }

// CanWrite reports whether the permission is write access or more.
func (p Permission) CanWrite() bool {
	return p.Permission == "admin" || p.Permission == "write" || p.Role == "admin" || p.Role == "maintain" || p.Role == "write"
}

// String is the permission as shown to the commenter.
func (p Permission) String() string {
	if p.Role != "" && p.Role != p.Permission {
		return p.Permission + " (role " + p.Role + ")"
	}
	return p.Permission
}

// Pulls are the pull-request calls of a command and of the re-baseline on
// merge.
type Pulls interface {
	Get(ctx context.Context, repo Repo, number int) (PullRequest, error)
	// Permission is the user's permission on repo; a user who is no
	// collaborator has none.
	Permission(ctx context.Context, repo Repo, user string) (Permission, error)
	// React adds a reaction (+1, -1, eyes, rocket, confused, …) to an
	// issue comment.
	React(ctx context.Context, repo Repo, commentID int64, content string) error
	// ForCommit lists the pull requests associated with a commit: for a
	// merge, a squash or a rebase commit on the base branch, the pull
	// request it merged.
	ForCommit(ctx context.Context, repo Repo, sha string) ([]PullRequest, error)
}

// A SteerOutcome is what a command did.
type SteerOutcome struct {
	// Refused says why the command was not carried out ("" = it was).
	Refused string
	// Run is the plan of a /perfgate run the permission check allowed: a
	// pull-request check of the head read from the API. The caller checks
	// that head out, then runs it (Run).
	Run *Plan
}

// Steer answers the command of a KindSteer plan: it reads the pull
// request and the commenter's permission, refuses (with a reply and a 👎)
// a commenter without write access, a closed pull request or a malformed
// command, and otherwise accepts (records the acceptance, then posts the
// sticky comment and the status again from the stored result, without
// running anything) or returns the plan of a run.
func Steer(ctx context.Context, o RunOptions) (SteerOutcome, error) {
	pl, cmd, gh := o.Plan, o.Plan.Command, o.GitHub
	pr, err := gh.Pulls.Get(ctx, pl.Repo, pl.PR)
	if err != nil {
		return SteerOutcome{}, err
	}
	reply := report.CommandReply{Who: cmd.Author, Command: commandLine(cmd), Repo: pl.Repo.String(), Usage: CommandUsage}
	perm, err := gh.Pulls.Permission(ctx, pl.Repo, cmd.Author)
	if err != nil {
		return SteerOutcome{}, err
	}
	reply.Permission = perm.String()
	a := model.Acceptance{Repo: pl.Repo.String(), PR: pl.PR, HeadSHA: pr.HeadSHA, Glob: cmd.Glob, Who: cmd.Author,
		Reason: cmd.Reason, At: time.Now().UTC(), Comment: cmd.URL}
	switch {
	case !perm.CanWrite():
		reply.Refused = "permission"
	case cmd.Err != "":
		reply.Refused, reply.Detail = "malformed", cmd.Err
	case cmd.Verb == "accept" && a.Check() != nil:
		reply.Refused, reply.Detail = "malformed", a.Check().Error()
	case pr.State != "open":
		reply.Refused = "closed"
	case cmd.Verb == "run" && pr.HeadRepo != pl.Repo.String() && !pl.AllowForks:
		reply.Refused, reply.Detail = "fork", firstOf(pr.HeadRepo, "(deleted repository)")
	}
	fmt.Fprintf(o.Stderr, "perfgate: %s by %s (permission %s) on #%d, head %s\n", cmd.Verb, cmd.Author, perm, pr.Number, model.ShortSHA(pr.HeadSHA))
	if reply.Refused != "" {
		o.Log.Annotate("warning", "perfgate refused a command", fmt.Sprintf("%s by %s: %s", cmd.Verb, cmd.Author, reply.Refused))
		return SteerOutcome{Refused: reply.Refused}, errors.Join(react(ctx, o, "-1"), replyTo(ctx, o, reply))
	}
	check := checkPlan(pl, pr)
	if cmd.Verb == "run" {
		return SteerOutcome{Run: check}, react(ctx, o, "rocket")
	}
	return SteerOutcome{}, accept(ctx, o, check, a, reply)
}

// checkPlan is the pull-request check a command acts on: the plan of a
// pull_request event for the head the API names.
func checkPlan(pl *Plan, pr PullRequest) *Plan {
	c := *pl
	c.Kind, c.Record, c.Command = KindCheck, true, nil
	c.HeadSHA, c.Branch, c.BaseSHA, c.BaseRef = pr.HeadSHA, pr.HeadRef, pr.BaseSHA, pr.BaseRef
	c.Fork = pr.HeadRepo != pl.Repo.String()
	return &c
}

// accept records the acceptance, then posts the comment and the status
// again from the stored result of the head, with every acceptance of the
// pull request applied.
func accept(ctx context.Context, o RunOptions, check *Plan, a model.Acceptance, reply report.CommandReply) error {
	st, closeStore, err := o.OpenStore(ctx)
	if err != nil {
		return err
	}
	defer closeStore()
	as, ok := st.(history.AcceptanceStore)
	ss, ok2 := st.(history.ShardStore)
	if !ok || !ok2 {
		return fmt.Errorf("accept: the history store %T keeps no acceptances or reports", st)
	}
	r := &run{o: o, plan: check}
	if r.accs, err = as.Acceptances(ctx, a.Repo, a.PR); err != nil {
		return err
	}
	reports, err := ss.Shards(ctx, ShardSet(check))
	if err != nil {
		return err
	}
	// The stored result is decoded once: the acceptance bounds itself by
	// the changes it accepts in it, and the comment is posted from it.
	var stored storedResult
	var loadErr error
	if len(reports) > 0 {
		if stored, loadErr = loadStored(reports, check.HeadSHA); loadErr == nil {
			a.Changes = compare.AcceptedChanges(stored.comparison(), a.Glob)
		}
	}
	// The jobs of a matrix (shards) all answer one comment: it is recorded
	// once.
	if !slices.ContainsFunc(r.accs, func(x model.Acceptance) bool { return a.Comment != "" && x.Comment == a.Comment }) {
		if err := as.AddAcceptance(ctx, a); err != nil {
			return err
		}
		r.accs = append(r.accs, a)
		fmt.Fprintf(o.Stderr, "perfgate: recorded: %s accepted %q on #%d (%s)\n", a.Who, a.Glob, a.PR, model.ShortSHA(a.HeadSHA))
	}
	if len(reports) == 0 {
		reply.Head = a.HeadSHA
		return errors.Join(react(ctx, o, "+1"), replyTo(ctx, o, reply))
	}
	if loadErr != nil {
		return errors.Join(react(ctx, o, "+1"), loadErr)
	}
	return errors.Join(react(ctx, o, "+1"), r.repost(ctx, stored))
}

// A storedResult is a check's stored result, decoded: a sharded job's
// merged reports, or a job's own report.
type storedResult struct {
	merged *ShardMerge
	own    shardData
}

// loadStored decodes the stored reports of a check of head: the newest
// job's own, or a sharded job's merged.
func loadStored(reports []model.ShardReport, head string) (storedResult, error) {
	newest := slices.MaxFunc(reports, func(a, b model.ShardReport) int { return a.RecordedAt.Compare(b.RecordedAt) })
	if newest.Shards > 1 {
		m, err := MergeShards(reports, newest.Shards)
		return storedResult{merged: m}, err
	}
	d, err := decodeShard(newest.Data)
	if err != nil {
		return storedResult{}, fmt.Errorf("the stored result of %s cannot be read (%w): run /perfgate run", model.ShortSHA(head), err)
	}
	return storedResult{own: d}, nil
}

func (s storedResult) comparison() *compare.Comparison {
	if s.merged != nil {
		return s.merged.Comparison
	}
	return s.own.Comparison
}

// repost posts the comment and the status of the stored result with the
// acceptances applied: a job's own report as its run posted it, a sharded
// job's merged.
func (r *run) repost(ctx context.Context, s storedResult) error {
	if s.merged != nil {
		return r.postMerged(ctx, s.merged)
	}
	c := s.own.Comparison
	r.conf, r.history, r.notes = s.own.Confirmation, s.own.History, s.own.Notes
	compare.Accept(c, r.accs)
	fmt.Fprintf(r.o.Stdout, "perfgate: %s\n", report.VerdictLine(c))
	return r.updateGitHub(ctx, c)
}

// acceptances reads the regressions accepted on the pull request, for a
// check's comparison. When they cannot be read the regressions stand,
// with a warning.
func (r *run) acceptances(ctx context.Context, st Store) []model.Acceptance {
	as, ok := st.(history.AcceptanceStore)
	if !ok {
		return nil
	}
	accs, err := as.Acceptances(ctx, r.plan.Repo.String(), r.plan.PR)
	if err != nil {
		r.o.Log.Annotate("warning", "", fmt.Sprintf("perfgate: the acceptances of #%d could not be read, so no regression counts as accepted: %v", r.plan.PR, err))
		return nil
	}
	r.accs = accs
	return accs
}

// saveReport keeps a check's result for /perfgate accept, which posts the
// comment again without running anything. A failure is a warning: the
// verdict is out by then.
func (r *run) saveReport(ctx context.Context, st Store, c *compare.Comparison) {
	ss, ok := st.(history.ShardStore)
	if !ok {
		return
	}
	data, err := encodeShard(shardData{Label: c.Candidate.Testbed, Comparison: c, Notes: r.notes, History: r.history, Confirmation: r.conf})
	if err == nil {
		err = ss.SaveShard(ctx, model.ShardReport{Set: ShardSet(r.plan), Shard: 0, Shards: 1, Data: data})
	}
	if err != nil {
		fmt.Fprintf(r.o.Stderr, "perfgate: warning: the result was not stored for /perfgate accept: %v\n", err)
	}
}

// react adds a reaction to the command's comment.
func react(ctx context.Context, o RunOptions, content string) error {
	if err := o.GitHub.Pulls.React(ctx, o.Plan.Repo, o.Plan.Command.CommentID, content); err != nil {
		return fmt.Errorf("react to the command: %w", err)
	}
	return nil
}

// replyTo answers the command with a comment of its own.
func replyTo(ctx context.Context, o RunOptions, r report.CommandReply) error {
	body := report.Redact(report.CommandReplyMarkdown(r), o.Secrets)
	if _, err := o.GitHub.Comments.Create(ctx, o.Plan.Repo, o.Plan.PR, body); err != nil {
		return fmt.Errorf("reply to the command: %w", err)
	}
	return nil
}

// commandLine is the command as written, for the reply's quote.
func commandLine(c *Command) string {
	s := CommandPrefix + " " + c.Verb
	switch {
	case c.Glob != "":
		s += " " + c.Glob
		if c.Reason != "" {
			s += " " + c.Reason
		}
	case c.Filter != "":
		s += " " + c.Filter
	}
	return s
}

// CheckEnv is getenv as a pull_request event of the check plan would have
// set it, for the run block of what /perfgate run measures: the head
// commit and branch, the base branch, the event and the pull request's
// ref. Everything else is the job's.
func CheckEnv(getenv func(string) string, check *Plan) func(string) string {
	set := map[string]string{"GITHUB_SHA": check.HeadSHA, "GITHUB_HEAD_REF": check.Branch, "GITHUB_BASE_REF": check.BaseRef,
		"GITHUB_EVENT_NAME": "pull_request", "GITHUB_REF": fmt.Sprintf("refs/pull/%d/merge", check.PR)}
	return func(k string) string {
		if v, ok := set[k]; ok {
			return v
		}
		return getenv(k)
	}
}

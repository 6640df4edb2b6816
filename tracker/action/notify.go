package action

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/perfgate/perfgate/internal/safetext"
	"github.com/perfgate/perfgate/tracker/report"
	"github.com/perfgate/perfgate/tracker/site"
	"github.com/perfgate/perfgate/tracker/trend"
)

// A NotifyPolicy says where new change points on the baseline branch are
// announced besides the job summary (the notify-changes input).
type NotifyPolicy string

// The notify policies.
const (
	NotifyOff           NotifyPolicy = "off"
	NotifyCommitComment NotifyPolicy = "commit-comment" // a comment on each step's first commit
	NotifyIssue         NotifyPolicy = "issue"          // one issue per push that finds new steps
)

// ParseNotifyPolicy checks the notify-changes input; "" is off.
func ParseNotifyPolicy(s string) (NotifyPolicy, error) {
	switch p := NotifyPolicy(strings.TrimSpace(s)); p {
	case NotifyOff, NotifyCommitComment, NotifyIssue:
		return p, nil
	case "":
		return NotifyOff, nil
	}
	return "", fmt.Errorf("notify-changes: %q is not off, commit-comment or issue", s)
}

// CommitComments reads and writes the comments on a commit. List returns
// every comment, following pagination.
type CommitComments interface {
	ListCommit(ctx context.Context, repo Repo, sha string) ([]Comment, error)
	CreateCommit(ctx context.Context, repo Repo, sha, body string) (Comment, error)
}

// An Issue is a GitHub issue.
type Issue struct {
	Number int
	Title  string
	Body   string
	URL    string // html_url, for messages
}

// Issues lists and opens issues. List returns the issues, open and closed,
// that creator opened, newest first, at most the latest MaxIssuesRead.
type Issues interface {
	List(ctx context.Context, repo Repo, creator string) ([]Issue, error)
	Create(ctx context.Context, repo Repo, title, body string) (Issue, error)
}

// MaxIssuesRead bounds how many of its own issues the action reads to
// find the steps it announced before.
const MaxIssuesRead = 1000

// Notify is how new change points are announced on GitHub.
type Notify struct {
	Policy         NotifyPolicy
	CommitComments CommitComments // NotifyCommitComment
	Issues         Issues         // NotifyIssue
	// Login returns who the token writes as: the creator of the issues
	// read back.
	Login func(ctx context.Context) (string, error)
	// DashboardURL is where `perfgate site` is published ("" for none):
	// each step links to its benchmark's page there.
	DashboardURL string
}

// StepKey identifies a step across pushes: the repository, the benchmark,
// the testbed and the first commit of the new level.
func StepKey(repo string, c trend.Change) string {
	h := sha256.Sum256([]byte(strings.Join([]string{repo, c.Suite, c.Name, c.Run.Testbed, c.Run.Commit}, "\x00")))
	return hex.EncodeToString(h[:10])
}

// markerRE finds the keys of report.NoticeMarker in a body.
var markerRE = regexp.MustCompile(`<!-- perfgate:change-point ([0-9a-f]+) -->`)

// announced returns the step keys the bodies carry.
func announced(bodies []string) map[string]bool {
	out := map[string]bool{}
	for _, b := range bodies {
		for _, m := range markerRE.FindAllStringSubmatch(b, -1) {
			out[m[1]] = true
		}
	}
	return out
}

// notify announces the steps of cs that no earlier notice announced, as
// the policy says. Failures are warnings: the runs are stored and the job
// summary lists the steps.
func (r *run) notify(ctx context.Context, cs []trend.Change) {
	n := r.o.Notify
	if n == nil || n.Policy == NotifyOff || len(cs) == 0 {
		return
	}
	var steps []report.NoticeStep
	for _, c := range cs {
		steps = append(steps, report.NoticeStep{Change: c, Key: StepKey(r.plan.Repo.String(), c), TrendURL: trendURL(n.DashboardURL, c)})
	}
	var err error
	switch n.Policy {
	case NotifyCommitComment:
		err = r.notifyCommits(ctx, steps)
	case NotifyIssue:
		err = r.notifyIssue(ctx, steps)
	}
	if err != nil {
		r.o.Log.Annotate("warning", "", fmt.Sprintf("perfgate: new change points not announced (%s): %v", n.Policy, err))
	}
}

// MaxCommitNotices bounds the commits one job comments on: each comment
// notifies the commit's author, and a push of many commits, or a history
// replayed into a new store, must not notify dozens of people. Steps on
// further commits are left to the job summary, with a warning.
const MaxCommitNotices = 10

// notifyCommits comments on the first commit of each step not announced
// there before, one comment per commit, on at most MaxCommitNotices
// commits: those of regressions first. A step whose commit is not a SHA is
// left to the job summary. Only the token's own comments say what was
// announced: anyone may comment on a commit, marker included.
func (r *run) notifyCommits(ctx context.Context, steps []report.NoticeStep) error {
	login, err := r.o.Notify.Login(ctx)
	if err != nil {
		return err
	}
	var shas []string
	for _, s := range regressionsFirst(steps) {
		if shaRE.MatchString(s.Run.Commit) && !slices.Contains(shas, s.Run.Commit) {
			shas = append(shas, s.Run.Commit)
		}
	}
	if len(shas) > MaxCommitNotices {
		r.o.Log.Annotate("warning", "", fmt.Sprintf("perfgate: new change points on %d commits: commented on the first %d only "+
			"(MaxCommitNotices); the job summary lists them all", len(shas), MaxCommitNotices))
		shas = shas[:MaxCommitNotices]
	}
	for _, sha := range shas {
		old, err := r.o.Notify.CommitComments.ListCommit(ctx, r.plan.Repo, sha)
		if err != nil {
			return err
		}
		var bodies []string
		for _, c := range old {
			if strings.EqualFold(c.Author, login) {
				bodies = append(bodies, c.Body)
			}
		}
		done := announced(bodies)
		fresh := slices.DeleteFunc(slices.Clone(steps), func(s report.NoticeStep) bool { return s.Run.Commit != sha || done[s.Key] })
		if len(fresh) == 0 {
			continue
		}
		c, err := r.o.Notify.CommitComments.CreateCommit(ctx, r.plan.Repo, sha, r.noticeBody(fresh))
		if err != nil {
			return err
		}
		fmt.Fprintf(r.o.Stdout, "perfgate: %d new change point(s) announced on commit %.12s: %s\n", len(fresh), sha, c.URL)
	}
	return nil
}

// notifyIssue opens one issue listing the steps that no issue of the
// token's author announced before.
func (r *run) notifyIssue(ctx context.Context, steps []report.NoticeStep) error {
	login, err := r.o.Notify.Login(ctx)
	if err != nil {
		return err
	}
	old, err := r.o.Notify.Issues.List(ctx, r.plan.Repo, login)
	if err != nil {
		return err
	}
	var bodies []string
	for _, is := range old {
		bodies = append(bodies, is.Body)
	}
	done := announced(bodies)
	fresh := slices.DeleteFunc(slices.Clone(steps), func(s report.NoticeStep) bool { return done[s.Key] })
	if len(fresh) == 0 {
		return nil
	}
	title := fmt.Sprintf("perfgate: %d new change point(s) on %s at %.12s", len(fresh), r.plan.BaselineBranch, r.plan.HeadSHA)
	is, err := r.o.Notify.Issues.Create(ctx, r.plan.Repo, title, r.noticeBody(fresh))
	if err != nil {
		return err
	}
	fmt.Fprintf(r.o.Stdout, "perfgate: %d new change point(s) announced in issue #%d: %s\n", len(fresh), is.Number, is.URL)
	return nil
}

// noticeBody renders the notice of steps: at most MaxNoticeSteps of them,
// regressions first, and fewer when their rows (long names) would take
// the body past GitHub's limit of MaxCommentChars characters on an issue
// or comment body; the job summary lists them all.
func (r *run) noticeBody(steps []report.NoticeStep) string {
	server := strings.TrimSuffix(r.o.ServerURL, "/")
	steps = regressionsFirst(steps)
	n := min(len(steps), MaxNoticeSteps)
	for {
		body := r.redact(report.ChangeNotice(steps[:n], len(steps)-n, r.plan.BaselineBranch, r.plan.HeadSHA, server+"/"+r.plan.Repo.String()))
		size := utf8.RuneCountInString(body)
		if size <= MaxCommentChars || n == 0 {
			return body
		}
		n = min(n-1, n*MaxCommentChars/size) // the rows' share of the body, roughly
	}
}

// regressionsFirst orders steps regressions first, keeping their order
// otherwise: what a bounded notice keeps.
func regressionsFirst(steps []report.NoticeStep) []report.NoticeStep {
	out := slices.Clone(steps)
	rank := func(s report.NoticeStep) int {
		if s.Kind == "regression" {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(out, func(a, b report.NoticeStep) int { return cmp.Compare(rank(a), rank(b)) })
	return out
}

// MaxNoticeSteps bounds the steps one notice lists; the job summary lists
// them all.
const MaxNoticeSteps = 100

var shaRE = regexp.MustCompile(`^[0-9a-f]{40}([0-9a-f]{24})?$`)

// trendURL is the benchmark's page on the dashboard, filtered to it and
// its testbed, or "" without a dashboard.
func trendURL(dashboard string, c trend.Change) string {
	if dashboard == "" {
		return ""
	}
	q := url.Values{"q": {safetext.NoBidi(c.Name)}, "testbed": {safetext.NoBidi(c.Run.Testbed)}} // as the pages show them
	return strings.TrimSuffix(dashboard, "/") + "/" + site.Slug(c.Suite) + ".html?" + q.Encode()
}

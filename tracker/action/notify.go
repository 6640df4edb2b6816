package action

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"

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

// notifyCommits comments on the first commit of each step not announced
// there before, one comment per commit. A step whose commit is not a SHA
// is left to the job summary.
func (r *run) notifyCommits(ctx context.Context, steps []report.NoticeStep) error {
	var shas []string
	for _, s := range steps {
		if shaRE.MatchString(s.Run.Commit) && !slices.Contains(shas, s.Run.Commit) {
			shas = append(shas, s.Run.Commit)
		}
	}
	for _, sha := range shas {
		old, err := r.o.Notify.CommitComments.ListCommit(ctx, r.plan.Repo, sha)
		if err != nil {
			return err
		}
		var bodies []string
		for _, c := range old {
			bodies = append(bodies, c.Body)
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

func (r *run) noticeBody(steps []report.NoticeStep) string {
	server := strings.TrimSuffix(r.o.ServerURL, "/")
	omitted := max(0, len(steps)-MaxNoticeSteps)
	return r.redact(report.ChangeNotice(steps[:len(steps)-omitted], omitted, r.plan.BaselineBranch, r.plan.HeadSHA, server+"/"+r.plan.Repo.String()))
}

// MaxNoticeSteps bounds the steps one notice lists, to stay far below
// GitHub's 65,536 characters; the job summary lists them all.
const MaxNoticeSteps = 100

var shaRE = regexp.MustCompile(`^[0-9a-f]{40}([0-9a-f]{24})?$`)

// trendURL is the benchmark's page on the dashboard, filtered to it and
// its testbed, or "" without a dashboard.
func trendURL(dashboard string, c trend.Change) string {
	if dashboard == "" {
		return ""
	}
	q := url.Values{"q": {c.Name}, "testbed": {c.Run.Testbed}}
	return strings.TrimSuffix(dashboard, "/") + "/" + site.Slug(c.Suite) + ".html?" + q.Encode()
}

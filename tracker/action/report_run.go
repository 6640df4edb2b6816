package action

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/report"
)

// maxSummaryBytes keeps the job summary under GitHub's limit of 1 MiB per
// step, with room for other steps' lines in the same file.
const maxSummaryBytes = 1000 << 10

// report writes the verdict everywhere a reader may look: the log (one
// group per suite, annotations), the job summary, the report file and the
// step outputs. Nothing it does talks to GitHub's API.
func (r *run) report(c *compare.Comparison) error {
	r.logSuites(c)
	r.annotate(c)
	opt := report.Options{Title: "perfgate", Footer: r.footer(), History: r.history, Confirmation: r.conf, Acceptances: r.accs}
	md := r.redact(report.WithPreRunNotes(report.Markdown(c, opt), r.notes))
	if err := r.o.Files.WriteReport(md); err != nil {
		return err
	}
	if len(md) > maxSummaryBytes {
		// GitHub refuses a step summary over 1 MiB: cut it at a row, pointing
		// to the report file, which keeps it whole.
		opt.MaxBytes, opt.Overflow = maxSummaryBytes, "The full report is in "+r.o.ReportPath+" (the report output) on the runner."
		md = r.redact(report.Markdown(c, opt))
	}
	r.o.Files.AddStepSummary(md)
	if err := r.o.Files.SetOutputs(outputs(c, r.o.ReportPath)); err != nil {
		return err
	}
	fmt.Fprintf(r.o.Stdout, "perfgate: %s\n", report.VerdictLine(c))
	fmt.Fprintf(r.o.Stdout, "perfgate: verdict %s; report %s\n", VerdictOf(c), r.o.ReportPath)
	return nil
}

// outputs are the step outputs of a verdict.
func outputs(c *compare.Comparison, reportPath string) [][2]string {
	return [][2]string{{"verdict", string(VerdictOf(c))}, {"regressions", strconv.Itoa(c.Summary.Regressions)},
		{"improvements", strconv.Itoa(c.Summary.Improvements)}, {"report", reportPath}, {"run-id", c.Candidate.ID}}
}

// redact replaces the secrets perfgate knows (the token, the database
// password) in text bound for the comment, the summary or the report: a
// benchmark's name or error comes from the command's output, which may
// have printed them. report.Redact finds them as the renderers wrote
// them (escaped, long words broken). The log needs no such step: the
// runner masks them.
func (r *run) redact(text string) string { return report.Redact(text, r.o.Secrets) }

func (r *run) footer() string {
	return fmt.Sprintf("[workflow run](%s) · perfgate %s", r.plan.RunURL, r.o.Version)
}

// logSuites prints one collapsible log group per suite.
func (r *run) logSuites(c *compare.Comparison) {
	bySuite := map[string][]compare.Result{}
	for _, x := range c.Results {
		bySuite[x.Suite] = append(bySuite[x.Suite], x)
	}
	suites := make([]string, 0, len(bySuite))
	for s := range bySuite {
		suites = append(suites, s)
	}
	sort.Strings(suites)
	for _, s := range suites {
		r.o.Log.Group(fmt.Sprintf("perfgate: suite %s (%d benchmarks)", s, len(bySuite[s])))
		for _, x := range bySuite[s] {
			fmt.Fprintf(r.o.Stdout, "%-12s %s/%s: %s\n", x.Verdict, x.Suite, x.Name, DescribeChange(&x))
		}
		r.o.Log.EndGroup()
	}
}

// annotate adds an error annotation per regression and a warning per warn.
func (r *run) annotate(c *compare.Comparison) {
	for i := range c.Results {
		x := &c.Results[i]
		title := fmt.Sprintf("perfgate %s: %s/%s", x.Verdict, x.Suite, x.Name)
		switch x.Verdict {
		case compare.Regression:
			r.o.Log.Annotate("error", title, DescribeChange(x))
		case compare.Warn:
			r.o.Log.Annotate("warning", title, DescribeChange(x))
		}
	}
}

// DescribeChange says in one line how a benchmark moved and how sure that is.
func DescribeChange(r *compare.Result) string {
	if math.IsNaN(r.Change) || r.NBaseline == 0 {
		return fmt.Sprintf("n=%d/%d; %s", r.NBaseline, r.NCandidate, r.Reason)
	}
	s := fmt.Sprintf("median %.4g → %.4g %s, %+.1f%% (CI %+.1f%% … %+.1f%%; positive is worse), p(slower, adj.)=%.3g, threshold %.3g%%, n=%d/%d",
		r.BaselineMedian, r.CandidateMedian, r.Unit, 100*r.Change, 100*r.CILow, 100*r.CIHigh, r.PAdjusted, 100*r.Threshold, r.NBaseline, r.NCandidate)
	if r.Reason != "" {
		s += "; " + r.Reason
	}
	return s
}

// updateGitHub posts the sticky comment and sets the commit status. It
// tries both even if one fails, and returns what failed.
func (r *run) updateGitHub(ctx context.Context, c *compare.Comparison) error {
	pointer := "The full report is in the job summary: " + r.plan.RunURL
	notes := len(report.WithPreRunNotes("", r.notes))
	body := r.redact(report.WithPreRunNotes(report.Markdown(c, report.Options{Confirmation: r.conf,
		Title: "perfgate", Footer: r.footer(), Overflow: pointer, History: r.history, Acceptances: r.accs,
		MaxBytes: MaxCommentChars - len(r.plan.Marker) - 1 - notes,
	}), r.notes))
	body = FitComment(r.plan.Marker, body, pointer)
	var errs []error
	act, made, err := r.postComment(ctx, body, c.Summary.Changed())
	switch {
	case err != nil:
		errs = append(errs, fmt.Errorf("the pull-request comment: %w", err))
	case act != CommentSkip:
		fmt.Fprintf(r.o.Stderr, "perfgate: comment %sd: %s\n", act, made.URL)
	}
	st := StatusFor(c, r.plan.FailOnRegression, r.plan.RunURL)
	if err := r.o.GitHub.Statuses.Create(ctx, r.plan.Repo, r.plan.HeadSHA, st); err != nil {
		errs = append(errs, fmt.Errorf("the commit status: %w", err))
	}
	for _, err := range errs {
		r.o.Log.Annotate("error", "perfgate could not update GitHub", err.Error())
	}
	return errors.Join(errs...)
}

// postComment creates or updates the sticky comment, as the token's own
// identity: a comment someone else wrote is never touched.
func (r *run) postComment(ctx context.Context, body string, changed bool) (CommentAction, Comment, error) {
	if r.o.Comment == CommentNever {
		return CommentSkip, Comment{}, nil
	}
	login, err := r.o.GitHub.Login(ctx)
	if err != nil {
		return CommentSkip, Comment{}, err
	}
	s := &Sticky{Comments: r.o.GitHub.Comments, Repo: r.plan.Repo, PR: r.plan.PR, Marker: r.plan.Marker, Author: login, Policy: r.o.Comment}
	return s.Post(ctx, body, changed)
}

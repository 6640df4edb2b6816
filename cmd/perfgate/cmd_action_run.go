package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/sethvargo/go-githubactions"

	"github.com/perfgate/perfgate/ab"
	"github.com/perfgate/perfgate/tracker/action"
	"github.com/perfgate/perfgate/tracker/check"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/confirm"
	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/report"
)

// An actionRun is one run of perfgate action after its plan is made.
type actionRun struct {
	e    *env
	gha  *githubactions.Action
	o    *actionOptions
	cfg  *config.Config // nil: results-file without a config file
	plan *action.Plan
	// history feeds the report's charts (report_history.go): the check
	// mode's recent baseline medians of the changed benchmarks.
	history report.Histories
	ab      *ab.Session           // the interleaved mode's worktree, kept for the confirmation
	conf    *confirm.Confirmation // what re-running the regressions showed (nil: not re-run)
	// preRunNotes are the pre-run checks' warnings, shown in the report
	// and the comment.
	preRunNotes []string
}

func (a *actionRun) run(ctx context.Context) error {
	defer a.closeAB()
	base, runs, files, err := a.measure(ctx)
	if err != nil {
		return err
	}
	if a.cfg != nil {
		a.o.compare = applyConfig(a.o.compare, a.cfg, a.o.inputsSet, resultKeys(runs))
	}
	var gh *githubAPI
	if a.plan.Mode == action.ModeCheck {
		if gh, err = githubClients(a.o, a.e); err != nil {
			return err
		}
	}
	sf := storeFlags{dir: a.o.storeDir, dbURL: a.o.dbURL, spool: a.o.spoolDir, timeout: a.o.dbTimeout}
	// Runs are spooled only when the plan records them: what was not to be
	// stored is not stored later either.
	spoolRuns := func(err error) error {
		if !a.plan.Record {
			return err
		}
		return spoolOnFailure(a.e, sf, runs, err)
	}
	st, err := openStore(ctx, sf)
	if err != nil {
		return spoolRuns(err)
	}
	defer st.Close()
	var c *compare.Comparison
	var b *model.Baseline
	if a.interleaved() {
		c, err = a.compareAB(base, runs)
	} else {
		q := check.Query{Branch: a.plan.BaselineBranch, Testbed: a.o.baselineTestbed, Jobs: a.o.baselineRuns, History: a.o.compare.HistoryJobs}
		if b, err = check.Baseline(ctx, filteredBaseline(st, a.o.filter), runs, q); err == nil {
			c, err = check.Judge(b, runs, q.Jobs, a.o.compare)
		}
	}
	if err != nil {
		return spoolRuns(err)
	}
	if a.confirming(c) {
		var extra []*model.Results
		c, extra = a.confirm(ctx, b, base, runs, c)
		runs, files = append(runs, extra...), append(files, check.RunNames(extra)...)
	}
	tally := tallyOf(c)
	if a.plan.Mode == action.ModeCheck {
		if a.history, err = reportHistory(ctx, st, c, a.plan.BaselineBranch); err != nil {
			a.gha.Warningf("perfgate: no history charts: %v", err)
		}
	}
	if err := a.report(c, tally); err != nil {
		return err
	}
	var ghErr error
	if a.plan.Mode == action.ModeCheck {
		ghErr = a.updateGitHub(ctx, gh, c, tally)
	}
	if err := a.record(ctx, st, files, runs, c); err != nil {
		return spoolRuns(err)
	}
	if a.plan.Mode == action.ModeBaseline && a.plan.Record {
		a.reportChanges(ctx, st, runs)
	}
	return a.exit(tally, ghErr)
}

// measure returns the runs to judge and their names for messages: the
// results-file inputs or the config's suites run once, or, in the
// interleaved mode, the head side of an A/B run here with the base side's
// rounds.
func (a *actionRun) measure(ctx context.Context) (base, runs []*model.Results, files []string, err error) {
	if len(a.o.resultFiles) == 0 {
		if err := a.preRun(ctx); err != nil {
			return nil, nil, nil, err
		}
	}
	if !a.interleaved() {
		runs, files, err = loadActionResults(ctx, a.e, a.o, a.cfg)
		return nil, runs, files, err
	}
	if base, runs, err = a.measureAB(ctx); err != nil {
		return nil, nil, nil, err
	}
	return base, runs, check.RunNames(runs), nil
}

// report writes the verdict everywhere a reader may look: the log (one
// group per suite, annotations), the job summary, the report file and the
// step outputs. Nothing it does talks to GitHub's API.
func (a *actionRun) report(c *compare.Comparison, t action.Tally) error {
	a.logSuites(c)
	a.annotate(c)
	md := a.redact(report.WithPreRunNotes(report.Markdown(c, report.Options{Title: "perfgate", Footer: a.footer(), History: a.history, Confirmation: a.conf}), a.preRunNotes))
	if err := os.WriteFile(a.o.reportPath, []byte(md), 0o644); err != nil {
		return &model.InfraError{Op: "write the report " + a.o.reportPath, Err: err}
	}
	if len(md) > maxSummaryBytes {
		// GitHub refuses a step summary over 1 MiB: cut it at a row, pointing
		// to the report file, which keeps it whole.
		md = a.redact(report.Markdown(c, report.Options{Title: "perfgate", Footer: a.footer(), History: a.history, Confirmation: a.conf,
			MaxBytes: maxSummaryBytes, Overflow: "The full report is in " + a.o.reportPath + " (the report output) on the runner."}))
	}
	a.gha.AddStepSummary(md)
	if err := writeOutputs(a.e.Getenv("GITHUB_OUTPUT"), [][2]string{
		{"verdict", string(t.Verdict())}, {"regressions", strconv.Itoa(t.Regressions)},
		{"improvements", strconv.Itoa(t.Improvements)}, {"report", a.o.reportPath}, {"run-id", c.Candidate.ID},
	}); err != nil {
		return err
	}
	fmt.Fprintf(a.e.Stdout, "perfgate: %s\n", report.VerdictLine(c))
	fmt.Fprintf(a.e.Stdout, "perfgate: verdict %s; report %s\n", t.Verdict(), a.o.reportPath)
	return nil
}

// maxSummaryBytes keeps the job summary under GitHub's limit of 1 MiB per
// step, with room for other steps' lines in the same file.
const maxSummaryBytes = 1000 << 10

// redact replaces the secrets perfgate knows (the token, the database
// password) in text bound for the comment, the summary or the report: a
// benchmark's name or error comes from the command's output, which may
// have printed them. The log needs no such step: the runner masks them.
func (a *actionRun) redact(text string) string {
	for _, s := range action.Secrets(a.o.token, a.o.dbURL) {
		if len(s) >= 4 { // a shorter secret would blank out ordinary text
			text = strings.ReplaceAll(text, s, "***")
		}
	}
	return text
}

func (a *actionRun) footer() string {
	return fmt.Sprintf("[workflow run](%s) · perfgate %s", a.plan.RunURL, buildVersion())
}

// logSuites prints one collapsible log group per suite.
func (a *actionRun) logSuites(c *compare.Comparison) {
	bySuite := map[string][]compare.Result{}
	for _, r := range c.Results {
		bySuite[r.Suite] = append(bySuite[r.Suite], r)
	}
	suites := make([]string, 0, len(bySuite))
	for s := range bySuite {
		suites = append(suites, s)
	}
	sort.Strings(suites)
	for _, s := range suites {
		a.gha.Group(fmt.Sprintf("perfgate: suite %s (%d benchmarks)", s, len(bySuite[s])))
		for _, r := range bySuite[s] {
			fmt.Fprintf(a.e.Stdout, "%-12s %s/%s: %s\n", r.Verdict, r.Suite, r.Name, describeChange(&r))
		}
		a.gha.EndGroup()
	}
}

// annotate adds an error annotation per regression and a warning per warn.
func (a *actionRun) annotate(c *compare.Comparison) {
	for i := range c.Results {
		r := &c.Results[i]
		fields := map[string]string{"title": fmt.Sprintf("perfgate %s: %s/%s", r.Verdict, r.Suite, r.Name)}
		switch r.Verdict {
		case compare.Regression:
			a.gha.WithFieldsMap(fields).Errorf("%s", describeChange(r))
		case compare.Warn:
			a.gha.WithFieldsMap(fields).Warningf("%s", describeChange(r))
		}
	}
}

// describeChange says in one line how a benchmark moved and how sure that is.
func describeChange(r *compare.Result) string {
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
func (a *actionRun) updateGitHub(ctx context.Context, gh *githubAPI, c *compare.Comparison, t action.Tally) error {
	pointer := "The full report is in the job summary: " + a.plan.RunURL
	notes := len(report.WithPreRunNotes("", a.preRunNotes))
	body := a.redact(report.WithPreRunNotes(report.Markdown(c, report.Options{Confirmation: a.conf,
		Title: "perfgate", Footer: a.footer(), Overflow: pointer, History: a.history,
		MaxBytes: action.MaxCommentChars - len(a.plan.Marker) - 1 - notes,
	}), a.preRunNotes))
	body = action.FitComment(a.plan.Marker, body, pointer)
	var errs []error
	act, made, err := a.postComment(ctx, gh, body, t.Changed())
	switch {
	case err != nil:
		errs = append(errs, fmt.Errorf("the pull-request comment: %w", err))
	case act != action.CommentSkip:
		fmt.Fprintf(a.e.Stderr, "perfgate: comment %sd: %s\n", act, made.URL)
	}
	st := action.StatusFor(t, a.plan.FailOnRegression, a.plan.RunURL)
	if err := gh.statuses.Create(ctx, a.plan.Repo, a.plan.HeadSHA, st); err != nil {
		errs = append(errs, fmt.Errorf("the commit status: %w", err))
	}
	for _, err := range errs {
		a.gha.WithFieldsMap(map[string]string{"title": "perfgate could not update GitHub"}).Errorf("%v", err)
	}
	return errors.Join(errs...)
}

// postComment creates or updates the sticky comment, as the token's own
// identity: a comment someone else wrote is never touched.
func (a *actionRun) postComment(ctx context.Context, gh *githubAPI, body string, changed bool) (action.CommentAction, action.Comment, error) {
	if a.o.comment == action.CommentNever {
		return action.CommentSkip, action.Comment{}, nil
	}
	login, err := gh.login(ctx)
	if err != nil {
		return action.CommentSkip, action.Comment{}, err
	}
	s := &action.Sticky{Comments: gh.comments, Repo: a.plan.Repo, PR: a.plan.PR, Marker: a.plan.Marker, Author: login, Policy: a.o.comment}
	return s.Post(ctx, body, changed)
}

// record stores the runs the plan says to. In the check mode a run that
// claims to be a baseline-branch run is not stored: a pull request must
// never become a baseline.
func (a *actionRun) record(ctx context.Context, st history.Store, files []string, runs []*model.Results, c *compare.Comparison) error {
	if !a.plan.Record {
		return nil
	}
	var keepFiles []string
	var keep []*model.Results
	for i, r := range runs {
		if a.plan.Mode == action.ModeCheck && r.Run.IsBaselineCandidate(a.plan.BaselineBranch) {
			a.gha.Warningf("%s: run %s claims to be a %s run of %s outside a pull request; not recorded from a pull request",
				files[i], r.Run.ID, r.Run.Event, r.Run.Branch)
			continue
		}
		keepFiles, keep = append(keepFiles, files[i]), append(keep, r)
	}
	if err := check.RecordRuns(ctx, a.e.Stderr, st, keepFiles, keep); err != nil {
		return err
	}
	if a.plan.Mode == action.ModeCheck {
		saveComparison(ctx, a.e, st, c)
	}
	return nil
}

// exit turns the outcome into the exit code: 1 on a regression that fails
// the check, else 3 when GitHub could not be updated, else 0. The verdict
// has been written out before.
func (a *actionRun) exit(t action.Tally, ghErr error) error {
	failed := a.plan.FailOnRegression && t.Verdict() == action.Fail
	switch {
	case failed && ghErr != nil:
		fmt.Fprintf(a.e.Stderr, "perfgate: also, GitHub could not be updated: %v\n", ghErr)
		return errRegression
	case failed:
		return errRegression
	case ghErr != nil:
		return &exitError{code: exitInfra, err: fmt.Errorf("the verdict (%s) is in the job summary and outputs, but GitHub could not be updated: %w", t.Verdict(), ghErr)}
	}
	return nil
}

// tallyOf counts a comparison's verdicts for the status and the outputs.
func tallyOf(c *compare.Comparison) action.Tally {
	s := c.Summary
	return action.Tally{
		Regressions: s.Regressions, Improvements: s.Improvements, Warnings: s.Warnings, Insufficient: s.Insufficient,
		Unchanged: s.Unchanged, Errors: s.Errors, Incomparable: s.Incomparable, Noisy: s.Noisy, Threshold: c.Options.Threshold,
	}
}

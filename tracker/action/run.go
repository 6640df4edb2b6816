package action

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/perfgate/perfgate/tracker/check"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/confirm"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/report"
)

// A Measurement is what the action judges: the runs and their names for
// messages, and, in an interleaved A/B, the base side's rounds.
type Measurement struct {
	Base  []*model.Results
	Runs  []*model.Results
	Names []string
	// Local: the suites ran here, so regressions can be re-run (results
	// files were made elsewhere).
	Local bool
	// PreRunNotes are the pre-run checks' warnings, shown in the report
	// and the comment.
	PreRunNotes []string
}

// A Measurer produces the runs to judge and re-runs regressions: the
// runner (suites, A/B rounds) lives behind it.
type Measurer interface {
	Measure(ctx context.Context) (*Measurement, error)
	// Confirm re-runs the regressions of first (judged against baseline
	// b, nil in an A/B) and returns the final comparison, what the re-run
	// showed and the re-run head rounds, to record.
	Confirm(ctx context.Context, b *model.Baseline, m *Measurement, first *compare.Comparison) (*compare.Comparison, *confirm.Confirmation, []*model.Results)
}

// A Store is what the action uses of the history.
type Store interface {
	check.BaselineSource
	check.Recorder
	Trend(ctx context.Context, q model.TrendQuery) ([]model.TrendSeries, error)
}

// A Log is the job's log: groups and annotations.
type Log interface {
	Group(title string)
	EndGroup()
	// Annotate adds an annotation; level is "error" or "warning".
	Annotate(level, title, msg string)
}

// Files are what the job keeps besides the log: the job summary, the step
// outputs and the report file.
type Files interface {
	AddStepSummary(md string)
	SetOutputs(pairs [][2]string) error
	WriteReport(md string) error
}

// GitHub is what a check run (KindCheck) uses of GitHub: the comments, the
// statuses, and the login the token writes as.
type GitHub struct {
	Comments Comments
	Statuses Statuses
	Login    func(ctx context.Context) (string, error)
	Pulls    Pulls // commands from comments (KindSteer) and the re-baseline on merge (KindBaseline)
}

// RunOptions is everything one run of the action acts on once its Plan is
// made: the settings from the inputs and the config, and the outside world
// behind interfaces.
type RunOptions struct {
	Plan            *Plan
	Config          *config.Config  // nil: results files without a config
	Compare         compare.Options // from the inputs
	Explicit        map[string]bool // the settings the inputs gave (check.Set*): they win over Config
	BaselineRuns    int
	BaselineTestbed string
	Filter          *regexp.Regexp // the suites judged (nil: all); the baseline keeps only them
	Confirm         bool           // re-run the regressions of a pull request before failing
	Comment         CommentPolicy
	Shard           Shard    // this run's shard of a sharded job (shards.go)
	Secrets         []string // redacted from the comment, the summary and the report
	Version         string   // perfgate's, for the footer
	ReportPath      string   // the report file, named where the summary is cut
	ServerURL       string   // e.g. https://github.com, for links

	Measurer Measurer
	// OpenStore opens the history; the caller closes what it returns
	// through close.
	OpenStore func(ctx context.Context) (st Store, close func() error, err error)
	// Spool keeps runs the store could not take and returns the error to
	// report; it is called only when the plan records.
	Spool  func(runs []*model.Results, err error) error
	GitHub *GitHub // KindCheck only
	Notify *Notify // how new change points are announced (KindBaseline; nil: the job summary only)
	Log    Log
	Files  Files
	Stdout io.Writer // the log's plain lines (verdicts per benchmark)
	Stderr io.Writer // progress and notes
}

// An Outcome is how a run ended once its verdict was written out.
type Outcome struct {
	Tally Tally
	// Failed: a regression fails the job (Plan.FailOnRegression).
	Failed bool
	// GitHubErr: the comment or the status could not be written.
	GitHubErr error
}

// Run is one run of the action after its plan is made: measure, judge
// (against the history, or the base side of an A/B), confirm regressions,
// report (log, summary, report file, outputs), update GitHub, record, and
// say how it ended. Errors are input errors (model.InputError) or
// infrastructure errors; the verdict is an Outcome, not an error.
func Run(ctx context.Context, o RunOptions) (Outcome, error) {
	r := &run{o: o, plan: o.Plan}
	m, err := o.Measurer.Measure(ctx)
	if err != nil {
		return Outcome{}, err
	}
	r.notes = m.PreRunNotes
	s := check.Settings{Query: check.Query{Branch: r.plan.BaselineBranch, Testbed: o.BaselineTestbed, Jobs: o.BaselineRuns,
		History: o.Compare.HistoryJobs}, Compare: o.Compare}
	explicit := map[string]bool{check.SetBranch: true} // the plan chose it
	for k, v := range o.Explicit {
		explicit[k] = v
	}
	s = check.ApplyConfig(s, o.Config, explicit, check.Keys(m.Runs))
	runs, names := m.Runs, m.Names
	spool := func(err error) error {
		if !r.plan.Record || o.Spool == nil {
			return err
		}
		return o.Spool(runs, err)
	}
	st, closeStore, err := o.OpenStore(ctx)
	if err != nil {
		return Outcome{}, spool(err)
	}
	defer closeStore()
	var c *compare.Comparison
	var b *model.Baseline
	if r.plan.Interleaved {
		c, err = CompareAB(m.Base, runs, s.Compare)
	} else if b, err = check.JudgeBaseline(ctx, FilteredBaseline(st, o.Filter), runs, s.Query); err == nil {
		c, err = check.Judge(b, runs, s.Query.Jobs, s.Compare)
	}
	if err != nil {
		return Outcome{}, spool(err)
	}
	if r.plan.Kind == KindCheck {
		r.accept(ctx, st, c) // first: an accepted regression is not re-run
	}
	if r.confirming(c, m) {
		var extra []*model.Results
		c, r.conf, extra = o.Measurer.Confirm(ctx, b, m, c)
		compare.Accept(c, r.accs)
		fmt.Fprint(o.Stdout, strings.TrimPrefix(report.ConfirmText(r.conf), "\n"))
		runs, names = append(runs, extra...), append(names, check.RunNames(extra)...)
	}
	tally := TallyOf(c)
	if r.plan.Kind == KindCheck {
		if r.history, err = ReportHistory(ctx, st, c, r.plan.BaselineBranch); err != nil {
			o.Log.Annotate("warning", "", fmt.Sprintf("perfgate: no history charts: %v", err))
		}
	}
	if err := r.report(c, tally); err != nil {
		return Outcome{}, err
	}
	out := Outcome{Tally: tally, Failed: tally.Fails(r.plan.FailOnRegression)}
	switch {
	case r.plan.Kind == KindCheck && o.Shard.Count > 1:
		if out.GitHubErr = r.updateGitHubShards(ctx, st, c); out.GitHubErr != nil {
			o.Log.Annotate("error", "perfgate could not update GitHub", out.GitHubErr.Error())
		}
	case r.plan.Kind == KindCheck:
		out.GitHubErr = r.updateGitHub(ctx, c, tally)
	}
	if err := r.record(ctx, st, names, runs, c); err != nil {
		return Outcome{}, spool(err)
	}
	if r.plan.Kind == KindBaseline && r.plan.Record {
		r.rebaseline(ctx, st, runs)
		r.reportChanges(ctx, st, runs)
	}
	return out, nil
}

// A run is the state of one Run.
type run struct {
	o       RunOptions
	plan    *Plan
	history report.Histories      // a check run's recent baseline medians, for the charts
	conf    *confirm.Confirmation // what re-running the regressions showed (nil: not re-run)
	notes   []string              // the pre-run checks' warnings
	accs    []model.Acceptance    // the regressions accepted on the pull request (steer.go)
}

// confirming reports whether the regressions of c are re-run: on a pull
// request, with the confirm input on, when the suites ran here.
func (r *run) confirming(c *compare.Comparison, m *Measurement) bool {
	if r.plan.Kind != KindCheck || !r.o.Confirm || !c.Failed() {
		return false
	}
	if !m.Local {
		fmt.Fprintf(r.o.Stderr, "perfgate: confirm: the results files were made outside this action, so the regressions are not re-run\n")
		return false
	}
	return true
}

// CompareAB judges the head against the base rounds of the same job.
func CompareAB(base, head []*model.Results, opt compare.Options) (*compare.Comparison, error) {
	opt.Interleaved = true
	c, err := compare.Compare(base, head, opt)
	if err != nil {
		return nil, &model.InputError{Msg: err.Error(), Err: err}
	}
	return c, nil
}

// record stores the runs the plan says to. In a check run a run that
// claims to be a baseline-branch run is not stored: a pull request must
// never become a baseline.
func (r *run) record(ctx context.Context, st Store, names []string, runs []*model.Results, c *compare.Comparison) error {
	if !r.plan.Record {
		return nil
	}
	var keepNames []string
	var keep []*model.Results
	for i, x := range runs {
		if r.plan.Kind == KindCheck && x.Run.IsBaselineCandidate(r.plan.BaselineBranch) {
			r.o.Log.Annotate("warning", "", fmt.Sprintf("%s: run %s claims to be a %s run of %s outside a pull request; not recorded from a pull request",
				names[i], x.Run.ID, x.Run.Event, x.Run.Branch))
			continue
		}
		keepNames, keep = append(keepNames, names[i]), append(keep, x)
	}
	if err := check.RecordRuns(ctx, r.o.Stderr, st, keepNames, keep); err != nil {
		return err
	}
	if r.plan.Kind == KindCheck {
		if _, err := check.SaveComparison(ctx, st, c); err != nil {
			fmt.Fprintf(r.o.Stderr, "perfgate: warning: the comparison was not stored: %v\n", err)
		}
		if r.o.Shard.Count <= 1 {
			r.saveReport(ctx, st, c)
		}
	}
	return nil
}

// TallyOf counts a comparison's verdicts for the status and the outputs.
func TallyOf(c *compare.Comparison) Tally {
	s := c.Summary
	return Tally{
		Regressions: s.Regressions, Improvements: s.Improvements, Warnings: s.Warnings, Insufficient: s.Insufficient,
		Unchanged: s.Unchanged, Errors: s.Errors, Incomparable: s.Incomparable, Noisy: s.Noisy, NotYet: s.NotYet, Skipped: s.Skipped, Accepted: s.Accepted, Threshold: c.Options.Threshold,
		Policy: c.Options.Inconclusive,
	}
}

// outputs are the step outputs of a verdict.
func outputs(t Tally, reportPath, runID string) [][2]string {
	return [][2]string{{"verdict", string(t.Verdict())}, {"regressions", strconv.Itoa(t.Regressions)},
		{"improvements", strconv.Itoa(t.Improvements)}, {"report", reportPath}, {"run-id", runID}}
}

package action

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/perfgate/perfgate/tracker/check"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/confirm"
	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/report"
)

// A Measurement is what the action judges: the runs and their names for
// messages, and, in an interleaved A/B, the base side's rounds.
type Measurement struct {
	Base  []*model.Results
	Runs  []*model.Results
	Names []string
	// PreRunNotes are the pre-run checks' warnings, shown in the report
	// and the comment.
	PreRunNotes []string
}

// A Measurer produces the runs to judge and re-runs regressions
// (check.Confirmer): the runner (suites, A/B rounds) lives behind it.
type Measurer interface {
	Measure(ctx context.Context) (*Measurement, error)
	check.Confirmer
}

// A Store is what the action uses of the history.
type Store interface {
	history.BaselineSource
	history.Recorder
	history.TrendSource
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
	BaselineJobs    int
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
	// Verdict is the gate's outcome (the verdict output).
	Verdict Verdict
	// Summary holds the comparison's verdict counts.
	Summary compare.Summary
	// Failed: a regression fails the job (Plan.FailOnRegression).
	Failed bool
	// GitHubErr: the comment or the status could not be written.
	GitHubErr error
}

// Run is one run of the action after its plan is made: measure, then the
// check (tracker/check: judge against the history or the base side of an
// A/B, apply the pull request's acceptances, confirm regressions, publish,
// record), then what a recorded run starts (the stored result for
// /perfgate accept, re-baselines, notices of change points). Publishing is
// the report (log, summary, report file, outputs) and GitHub (comment,
// status). Errors are input errors (model.InputError) or infrastructure
// errors; the verdict is an Outcome, not an error.
func Run(ctx context.Context, o RunOptions) (Outcome, error) {
	r := &run{o: o, plan: o.Plan}
	m, err := o.Measurer.Measure(ctx)
	if err != nil {
		return Outcome{}, err
	}
	r.notes = m.PreRunNotes
	policy := r.recordPolicy()
	st, closeStore, err := o.OpenStore(ctx)
	if err != nil {
		return Outcome{}, policy.Fail(m.Runs, err)
	}
	defer closeStore()
	explicit := map[string]bool{check.SetBranch: true} // the plan chose it
	for k, v := range o.Explicit {
		explicit[k] = v
	}
	co := check.RunOptions{
		Candidates: m.Runs, Names: m.Names, Base: m.Base,
		Settings: check.Settings{Query: check.Query{Branch: r.plan.BaselineBranch, Testbed: o.BaselineTestbed, Jobs: o.BaselineJobs,
			History: o.Compare.HistoryJobs}, Compare: o.Compare},
		Config: o.Config, Explicit: explicit,
		Store: st, Baseline: FilteredBaseline(st, o.Filter),
		Publish: func(ctx context.Context, res *check.Result) error { return r.publish(ctx, st, res) },
		Record:  policy, Log: o.Stderr,
	}
	if r.plan.Kind == KindCheck {
		co.Acceptances = r.acceptances(ctx, st) // an accepted regression is not re-run
		if o.Confirm {
			co.Confirmer = o.Measurer
		}
	}
	res, err := check.Run(ctx, co)
	if err != nil {
		return Outcome{}, err
	}
	switch {
	case r.plan.Kind == KindCheck && r.plan.Record && o.Shard.Count <= 1:
		r.saveReport(ctx, st, res.Comparison)
	case r.plan.Kind == KindBaseline && r.plan.Record:
		r.rebaseline(ctx, st, m.Runs)
		r.reportChanges(ctx, st, m.Runs)
	}
	return r.out, nil
}

// A run is the state of one Run.
type run struct {
	o       RunOptions
	plan    *Plan
	history report.Histories      // a check run's recent baseline medians, for the charts
	conf    *confirm.Confirmation // what re-running the regressions showed (nil: not re-run)
	notes   []string              // the pre-run checks' warnings
	accs    []model.Acceptance    // the regressions accepted on the pull request (steer.go)
	out     Outcome               // what publish wrote out
}

// publish writes the final verdict out: the confirmation and the report,
// then GitHub on a pull request. Nothing is recorded yet, so the verdict
// is out even when the store then fails.
func (r *run) publish(ctx context.Context, st Store, res *check.Result) error {
	c, o := res.Comparison, r.o
	r.conf = res.Confirmation
	fmt.Fprint(o.Stdout, strings.TrimPrefix(report.ConfirmText(r.conf), "\n"))
	if r.plan.Kind == KindCheck {
		var err error
		if r.history, err = ReportHistory(ctx, st, c, r.plan.BaselineBranch); err != nil {
			o.Log.Annotate("warning", "", fmt.Sprintf("perfgate: no history charts: %v", err))
		}
	}
	if err := r.report(c); err != nil {
		return err
	}
	r.out = Outcome{Verdict: VerdictOf(c), Summary: c.Summary, Failed: Fails(c, r.plan.FailOnRegression)}
	switch {
	case r.plan.Kind == KindCheck && o.Shard.Count > 1:
		if r.out.GitHubErr = r.updateGitHubShards(ctx, st, c); r.out.GitHubErr != nil {
			o.Log.Annotate("error", "perfgate could not update GitHub", r.out.GitHubErr.Error())
		}
	case r.plan.Kind == KindCheck:
		r.out.GitHubErr = r.updateGitHub(ctx, c)
	}
	return nil
}

// recordPolicy is what the plan records: a check run stores its runs and
// the comparison, but never a run that claims to be a baseline-branch run
// (a pull request must never become a baseline); a push stores its runs.
func (r *run) recordPolicy() check.RecordPolicy {
	p := check.RecordPolicy{Runs: r.plan.Record, Comparison: r.plan.Kind == KindCheck, Spool: r.o.Spool}
	if r.plan.Kind == KindCheck {
		p.Skip = func(name string, x *model.Results) bool {
			if !x.Run.IsBaselineCandidate(r.plan.BaselineBranch) {
				return false
			}
			r.o.Log.Annotate("warning", "", fmt.Sprintf("%s: run %s claims to be a %s run of %s outside a pull request; not recorded from a pull request",
				name, x.Run.ID, x.Run.Event, x.Run.Branch))
			return true
		}
	}
	return p
}

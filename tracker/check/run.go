package check

import (
	"context"
	"fmt"
	"io"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/confirm"
	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
)

// A Store is what a check reads and writes of the history.
type Store interface {
	history.BaselineSource
	history.Recorder
}

// A Confirmer re-runs the regressions of first (the candidates judged
// against baseline b; b is nil when they were judged against the base
// rounds of an A/B) and returns the final comparison, what the re-run
// showed (nil: nothing was re-run) and the re-run rounds, to record.
type Confirmer interface {
	Confirm(ctx context.Context, b *model.Baseline, cands []*model.Results, first *compare.Comparison) (*compare.Comparison, *confirm.Confirmation, []*model.Results)
}

// RunOptions are one check: the candidates, already in memory, what they
// are judged against, and what is kept of them.
type RunOptions struct {
	Candidates []*model.Results
	Names      []string // each candidate's name for messages: its file, or "run ID"
	Settings   Settings
	// Config is the .perfgate.yml whose settings apply where Explicit
	// leaves them open (ApplyConfig); nil: none.
	Config   *config.Config
	Explicit map[string]bool
	// Base, when set, are the base rounds of an interleaved A/B, which the
	// candidates are judged against instead of the history (JudgeAB).
	Base []*model.Results
	// Store is the history, open; the caller closes it. Baseline, if set,
	// is read instead of Store for the baseline (a filtered view of it).
	Store    Store
	Baseline history.BaselineSource
	// Acceptances are regressions accepted on the pull request the
	// candidates belong to: they apply to the first verdict and again to
	// the confirmed one.
	Acceptances []model.Acceptance
	// Confirmer, if set, re-runs the regressions before failing.
	Confirmer Confirmer
	// Publish, if set, is given the final verdict before anything is
	// recorded: what it writes out does not wait on the store.
	Publish func(ctx context.Context, res *Result) error
	Record  RecordPolicy
	Log     io.Writer // what was recorded, and warnings
	// LimitHeap, if set, is given the estimated bytes of results the check
	// holds, for the soft memory limit: before it reads the baseline
	// (ExpectedInputBytes of Names), and once it has (InputBytes).
	LimitHeap func(inputBytes int64)
}

// A RecordPolicy says what a check keeps once its verdict is out, and what
// happens to the runs when the database fails.
type RecordPolicy struct {
	Runs       bool // store the candidates and the re-run rounds
	Comparison bool // store the comparison too (with Runs)
	// Skip, if set, says a run is not stored; it tells why itself.
	Skip func(name string, r *model.Results) bool
	// Spool passes a database failure through, or keeps the runs for a
	// later upload; it is called only when Runs.
	Spool func(runs []*model.Results, err error) error
}

// Fail is err after a database failure with runs to keep: spooled when
// the policy records runs, passed through otherwise. Without Runs nothing
// is stored, spool included.
func (p RecordPolicy) Fail(runs []*model.Results, err error) error {
	if !p.Runs || p.Spool == nil {
		return err
	}
	return p.Spool(runs, err)
}

// A Result is a check's outcome: the comparison (after any confirmation),
// the confirmation (nil: none ran) and the settings it applied.
type Result struct {
	Comparison   *compare.Comparison
	Confirmation *confirm.Confirmation
	Settings     Settings
}

// Run takes the config's settings where the user left them open, reads
// the baseline (or takes the A/B's base rounds), judges, applies the
// acceptances, confirms the regressions when asked, publishes the verdict,
// and records the runs and the comparison as the policy says. A database
// failure spools the runs when the policy records them.
func Run(ctx context.Context, o RunOptions) (*Result, error) {
	cands, names := o.Candidates, o.Names
	s := ApplyConfig(o.Settings, o.Config, o.Explicit, Keys(cands))
	res := &Result{Settings: s}
	b, err := o.judge(ctx, res)
	if err != nil {
		return nil, o.Record.Fail(cands, err)
	}
	o.accept(res.Comparison)
	if o.Confirmer != nil && res.Comparison.Failed() {
		var rs []*model.Results
		res.Comparison, res.Confirmation, rs = o.Confirmer.Confirm(ctx, b, cands, res.Comparison)
		compare.Accept(res.Comparison, o.Acceptances)
		cands, names = append(cands, rs...), append(names, RunNames(rs)...)
	}
	if o.Publish != nil {
		if err := o.Publish(ctx, res); err != nil {
			return nil, err
		}
	}
	if err := o.record(ctx, names, cands, res.Comparison); err != nil {
		return nil, o.Record.Fail(cands, err)
	}
	return res, nil
}

// judge sets res.Comparison: the candidates against the A/B's base rounds
// or against the baseline it reads and returns.
func (o *RunOptions) judge(ctx context.Context, res *Result) (*model.Baseline, error) {
	var err error
	s := res.Settings
	if o.Base != nil {
		res.Comparison, err = JudgeAB(o.Base, o.Candidates, s.Compare)
		return nil, err
	}
	src := o.Baseline
	if src == nil {
		src = o.Store
	}
	if o.LimitHeap != nil {
		o.LimitHeap(ExpectedInputBytes(o.Names, s.Query.Jobs))
	}
	b, err := JudgeBaseline(ctx, src, o.Candidates, s.Query)
	if err != nil {
		return nil, err
	}
	if o.LimitHeap != nil {
		o.LimitHeap(InputBytes(o.Names, o.Candidates, b.Runs))
	}
	res.Comparison, err = Judge(b, o.Candidates, s.Query.Jobs, s.Compare)
	return b, err
}

// accept applies the acceptances to a first verdict and says how many
// regressions they covered.
func (o *RunOptions) accept(c *compare.Comparison) {
	if len(o.Acceptances) == 0 {
		return
	}
	if n := compare.Accept(c, o.Acceptances); n > 0 {
		fmt.Fprintf(o.Log, "perfgate: %d regression(s) accepted on #%d\n", n, o.Acceptances[0].PR)
	}
}

// record stores what the policy says to: the runs it does not skip, then
// the comparison.
func (o *RunOptions) record(ctx context.Context, names []string, runs []*model.Results, c *compare.Comparison) error {
	p := o.Record
	if !p.Runs {
		return nil
	}
	var keepNames []string
	var keep []*model.Results
	for i, r := range runs {
		if p.Skip != nil && p.Skip(names[i], r) {
			continue
		}
		keepNames, keep = append(keepNames, names[i]), append(keep, r)
	}
	if err := RecordRuns(ctx, o.Log, o.Store, keepNames, keep); err != nil {
		return err
	}
	if !p.Comparison {
		return nil
	}
	// The verdict is decided: a comparison that cannot be stored is a
	// warning, not a reason to fail the check.
	if _, err := SaveComparison(ctx, o.Store, c); err != nil {
		fmt.Fprintf(o.Log, "perfgate: warning: the comparison was not stored: %v\n", err)
	}
	return nil
}

// JudgeAB judges the head against the base rounds of the same job (an
// interleaved A/B).
func JudgeAB(base, head []*model.Results, opt compare.Options) (*compare.Comparison, error) {
	opt.Interleaved = true
	c, err := compare.Compare(base, head, opt)
	if err != nil {
		return nil, &model.InputError{Msg: err.Error(), Err: err}
	}
	return c, nil
}

// A Rerun confirms through a Rerunner: the regressed benchmarks run again
// in fresh processes, Rounds of them (Confirm).
type Rerun struct {
	Rerunner Rerunner
	Rounds   int
}

var _ Confirmer = Rerun{}

// Confirm re-runs the regressions of first (Confirm).
func (r Rerun) Confirm(ctx context.Context, b *model.Baseline, cands []*model.Results, first *compare.Comparison) (*compare.Comparison, *confirm.Confirmation, []*model.Results) {
	return Confirm(ctx, r.Rerunner, r.Rounds, b, cands, first)
}

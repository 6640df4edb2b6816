package check

import (
	"context"
	"fmt"
	"io"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/confirm"
	"github.com/perfgate/perfgate/tracker/model"
)

// A Store is what a check reads and writes of the history.
type Store interface {
	BaselineSource
	Recorder
}

// RunOptions are one perfgate check.
type RunOptions struct {
	Files    []string // the candidate's results files
	Settings Settings
	// Config is the .perfgate.yml whose settings apply where Explicit
	// leaves them open (ApplyConfig); nil: none.
	Config   *config.Config
	Explicit map[string]bool
	// ConfirmRounds > 0 re-runs the regressions through Rerunner before
	// failing (Confirm).
	ConfirmRounds int
	Rerunner      Rerunner
	// Record stores the candidates (and the re-run rounds) and the
	// comparison.
	Record bool
	// OpenStore opens the history; the caller's close func is called once
	// the check is done.
	OpenStore func(ctx context.Context) (Store, func() error, error)
	// Spool passes a database failure through, or keeps the runs for a
	// later upload (the command's spool); it is called only when Record.
	Spool func(runs []*model.Results, err error) error
	Log   io.Writer // what was recorded, and warnings
	// LimitHeap, if set, is given the estimated bytes of results the check
	// holds, for the soft memory limit: before it reads the baseline
	// (ExpectedInputBytes), and once it has (InputBytes).
	LimitHeap func(inputBytes int64)
}

// A Result is a check's outcome: the comparison (after any confirmation),
// the confirmation (nil: none ran) and the settings it applied.
type Result struct {
	Comparison   *compare.Comparison
	Confirmation *confirm.Confirmation
	Settings     Settings
}

// Run loads the candidates, takes the config's settings where the user
// left them open, reads the baseline, judges, confirms the regressions when
// asked, and records the runs and the comparison when asked. Only a check
// asked to record spools the candidates when the database fails: without
// Record nothing is stored, spool included.
func Run(ctx context.Context, o RunOptions) (*Result, error) {
	cands, err := LoadCandidates(o.Files)
	if err != nil {
		return nil, err
	}
	s := o.Settings
	if o.Config != nil {
		s = ApplyConfig(s, o.Config, o.Explicit, Keys(cands))
	}
	spool := func(runs []*model.Results, err error) error {
		if !o.Record || o.Spool == nil {
			return err
		}
		return o.Spool(runs, err)
	}
	st, closeStore, err := o.OpenStore(ctx)
	if err != nil {
		return nil, spool(cands, err)
	}
	defer closeStore()
	if o.LimitHeap != nil {
		o.LimitHeap(ExpectedInputBytes(o.Files, s.Query.Jobs))
	}
	b, err := JudgeBaseline(ctx, st, cands, s.Query)
	if err != nil {
		return nil, spool(cands, err)
	}
	if o.LimitHeap != nil {
		o.LimitHeap(InputBytes(o.Files, cands, b.Runs))
	}
	res := &Result{Settings: s}
	if res.Comparison, err = Judge(b, cands, s.Query.Jobs, s.Compare); err != nil {
		return nil, err
	}
	names := o.Files
	if o.ConfirmRounds > 0 && res.Comparison.Failed() {
		var rs []*model.Results
		res.Comparison, res.Confirmation, rs = Confirm(ctx, o.Rerunner, o.ConfirmRounds, b, cands, res.Comparison)
		cands, names = append(cands, rs...), append(names, RunNames(rs)...)
	}
	if !o.Record {
		return res, nil
	}
	if err := RecordRuns(ctx, o.Log, st, names, cands); err != nil {
		return nil, spool(cands, err)
	}
	// The verdict is decided: a comparison that cannot be stored is a
	// warning, not a reason to fail the check.
	if _, err := SaveComparison(ctx, st, res.Comparison); err != nil {
		fmt.Fprintf(o.Log, "perfgate: warning: the comparison was not stored: %v\n", err)
	}
	return res, nil
}

package check

import (
	"context"
	"fmt"
	"slices"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/confirm"
	"github.com/perfgate/perfgate/tracker/model"
)

// A Rerunner runs regressed benchmarks again in fresh processes, as more
// rounds of the candidate's job, and returns the rounds (holding only the
// targets' benchmarks) and the targets it could not re-run, with why.
type Rerunner interface {
	Rerun(ctx context.Context, targets []model.Key, cand model.Run) ([]*model.Results, map[model.Key]string, error)
}

// Confirm re-runs the regressions of first (the candidates judged against
// baseline b) through rr and re-judges them on the first rounds and the
// re-runs together against the same baseline (tracker/confirm decides). It
// returns the final comparison, what the re-run showed, and the re-run
// rounds (to record). The options are first's, and so are the priors the
// spreads are moderated with (compare.Options.Priors). A re-run that fails
// leaves every regression standing; the confirmation says why.
func Confirm(ctx context.Context, rr Rerunner, rounds int, b *model.Baseline, cands []*model.Results, first *compare.Comparison) (*compare.Comparison, *confirm.Confirmation, []*model.Results) {
	opt := first.Options // as Judge used them
	// The re-run holds only the regressed benchmarks: too few to fit the
	// priors their spreads are moderated with, so the first check's stand.
	opt.Priors = &first.Priors
	targets := confirm.Targets(first)
	rs, skipped, err := rr.Rerun(ctx, targets, cands[0].Run)
	if err != nil {
		return first, confirm.Failed(first, rounds, err.Error()), nil
	}
	if len(rs) == 0 {
		final, conf := confirm.Apply(first, nil, nil, 0, skipped)
		return final, conf, nil
	}
	rerun, err1 := compare.CompareBaseline(b, rs, opt)
	combined, err2 := compare.CompareBaseline(b, append(slices.Clone(cands), rs...), opt)
	if err1 != nil || err2 != nil {
		return first, confirm.Failed(first, rounds, fmt.Sprint(err1, err2)), nil
	}
	final, conf := confirm.Apply(first, rerun, combined, rounds, skipped)
	return final, conf, rs
}

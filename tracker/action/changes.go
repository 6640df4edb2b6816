package action

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/report"
	"github.com/perfgate/perfgate/tracker/trend"
)

// reportChanges adds to the job summary the change points that the
// baseline runs just recorded made appear on the baseline branch. It only
// warns when the history cannot be read: the runs are stored by then.
func (r *run) reportChanges(ctx context.Context, src history.TrendSource, runs []*model.Results) {
	server := strings.TrimSuffix(r.o.ServerURL, "/")
	cs, err := NewChanges(ctx, src, runs, r.plan.BaselineBranch)
	if err != nil {
		r.o.Log.Annotate("warning", "", fmt.Sprintf("perfgate: change points not checked: %v", err))
		return
	}
	if md := report.ChangesMarkdown(cs, r.plan.BaselineBranch, server+"/"+r.plan.Repo.String()); md != "" {
		r.o.Files.AddStepSummary(md)
		fmt.Fprintf(r.o.Stdout, "perfgate: new change points on %s are in the job summary\n", r.plan.BaselineBranch)
	}
	r.notify(ctx, cs)
}

// NewChanges reads the branch history of every suite and testbed of the
// baseline runs among runs and returns the steps they made appear
// (trend.NewSteps).
func NewChanges(ctx context.Context, src history.TrendSource, runs []*model.Results, branch string) ([]trend.Change, error) {
	type scope struct{ repo, suite, testbed string }
	latest := map[string]bool{}
	var scopes []scope
	for _, r := range runs {
		if !r.Run.IsBaselineCandidate(branch) {
			continue
		}
		latest[r.Run.ID] = true
		for _, b := range r.Benchmarks {
			if s := (scope{r.Run.Repo, b.Suite, r.Run.Testbed}); !slices.Contains(scopes, s) {
				scopes = append(scopes, s)
			}
		}
	}
	var cs []trend.Change
	for _, s := range scopes {
		series, err := src.Trend(ctx, model.TrendQuery{Repo: s.repo, Suite: s.suite, Branch: branch, Testbed: s.testbed})
		if err != nil {
			return nil, fmt.Errorf("the history of suite %q: %w", s.suite, err)
		}
		cs = append(cs, trend.NewSteps(series, latest, trend.DefaultOptions())...)
	}
	return cs, nil
}

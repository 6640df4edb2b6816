package main

import (
	"context"

	"github.com/perfgate/perfgate/ab"
	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/tracker/action"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/confirm"
	"github.com/perfgate/perfgate/tracker/model"
)

// measureAB runs the interleaved baseline (ab.Interleaved): the pull
// request's merge base and its head alternately on this machine. It keeps
// the session for the confirmation; run closes it.
func (a *actionRun) measureAB(ctx context.Context) (base, head []*model.Results, err error) {
	ref, err := a.plan.BaseCommit()
	if err != nil {
		return nil, nil, cli.UsageErrorf("%v", err)
	}
	run, err := actionRunMeta(ctx, a.e)
	if err != nil {
		return nil, nil, err
	}
	o := ab.Options{Base: ref, BaseBranch: a.plan.BaseRef, Repo: defaultRepo(ctx, a.e)}
	a.ab, base, head, err = ab.Interleaved(ctx, newRunner(a.e), o, a.cfg, a.o.Filter, a.o.Rounds, run)
	return base, head, err
}

// confirmAB re-runs the regressions of first as more A/B rounds
// (ab.Session.Confirm).
func (a *actionRun) confirmAB(ctx context.Context, base, head []*model.Results, first *compare.Comparison) (*compare.Comparison, *confirm.Confirmation, []*model.Results) {
	return a.ab.Confirm(ctx, base, head, first, func(b, h []*model.Results) (*compare.Comparison, error) {
		return action.CompareAB(b, h, first.Options)
	})
}

// closeAB removes the interleaved baseline's worktree, if there is one.
func (a *actionRun) closeAB() {
	if a.ab != nil {
		a.ab.Close()
		a.ab = nil
	}
}

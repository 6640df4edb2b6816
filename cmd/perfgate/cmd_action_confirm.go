package main

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/perfgate/perfgate/ab"
	"github.com/perfgate/perfgate/tracker/action"
	"github.com/perfgate/perfgate/tracker/check"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/confirm"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/report"
)

// confirming reports whether the action re-runs the regressions of c: on
// a pull request, with the confirm input on, when it ran the suites itself
// (results-file runs were made elsewhere: there is nothing here to re-run).
func (a *actionRun) confirming(c *compare.Comparison) bool {
	if a.plan.Mode != action.ModeCheck || !a.o.confirm || !c.Failed() {
		return false
	}
	if len(a.o.resultFiles) > 0 || a.cfg == nil {
		fmt.Fprintf(a.e.Stderr, "perfgate: confirm: the results files were made outside this action, so the regressions are not re-run\n")
		return false
	}
	return true
}

// confirm re-runs the regressions of first in fresh processes, alone (the
// history mode, against baseline b) or interleaved with the base commit
// (mode: interleaved, with base as the first base rounds), and returns the
// final comparison and the re-run head rounds, to record. a.conf says what
// the re-run showed.
func (a *actionRun) confirm(ctx context.Context, b *model.Baseline, base, runs []*model.Results, first *compare.Comparison) (*compare.Comparison, []*model.Results) {
	var c *compare.Comparison
	var extra []*model.Results
	if a.interleaved() {
		c, a.conf, extra = a.confirmAB(ctx, base, runs, first)
	} else {
		c, a.conf, extra = check.Confirm(ctx, &confirmer{e: a.e, rounds: confirm.DefaultRounds, cfg: a.cfg}, confirm.DefaultRounds, b, runs, first)
	}
	fmt.Fprint(a.e.Stdout, strings.TrimPrefix(report.ConfirmText(a.conf), "\n"))
	return c, extra
}

// confirmAB re-runs the suites of the regressions of first as more A/B
// rounds, base and head alternately, and re-judges the head's rounds, old
// and new, against the base's rounds, old and new.
func (a *actionRun) confirmAB(ctx context.Context, base, head []*model.Results, first *compare.Comparison) (*compare.Comparison, *confirm.Confirmation, []*model.Results) {
	targets := confirm.Targets(first)
	var quoted []string
	skipped := map[model.Key]string{}
	for _, k := range targets {
		switch {
		case !slices.ContainsFunc(a.cfg.Suites, func(s config.Suite) bool { return s.Name == k.Suite }):
			skipped[k] = fmt.Sprintf("suite %s is not a suite of %s", k.Suite, a.cfg.File)
		case !slices.Contains(quoted, regexp.QuoteMeta(k.Suite)):
			quoted = append(quoted, regexp.QuoteMeta(k.Suite))
		}
	}
	if len(quoted) == 0 {
		final, conf := confirm.Apply(first, nil, nil, 0, skipped)
		return final, conf, nil
	}
	rounds := confirm.DefaultRounds
	fmt.Fprintf(a.e.Stderr, "perfgate: confirming %s: %d more A/B rounds of %s\n", plural(len(targets), "regression"), rounds, strings.Join(quoted, ", "))
	cbase, chead, err := a.ab.Rounds(ctx, regexp.MustCompile("^("+strings.Join(quoted, "|")+")$"), rounds)
	if err == nil {
		err = ab.HeadRuns(chead, confirmRun(head[0].Run), "c")
	}
	if err != nil {
		fmt.Fprintf(a.e.Stderr, "perfgate: the confirmation re-run failed, the regressions stand: %v\n", err)
		return first, confirm.Failed(first, rounds, err.Error()), nil
	}
	keepTargets(cbase, targets)
	keepTargets(chead, targets)
	rerun, err1 := a.compareAB(cbase, chead)
	combined, err2 := a.compareAB(append(slices.Clone(base), cbase...), append(slices.Clone(head), chead...))
	if err1 != nil || err2 != nil {
		return first, confirm.Failed(first, rounds, fmt.Sprint(err1, err2)), nil
	}
	final, conf := confirm.Apply(first, rerun, combined, rounds, skipped)
	return final, conf, chead
}

// closeAB removes the interleaved mode's worktree, if there is one.
func (a *actionRun) closeAB() {
	if a.ab != nil {
		a.ab.Close()
		a.ab = nil
	}
}

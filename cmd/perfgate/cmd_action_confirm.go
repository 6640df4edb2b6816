package main

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/perfgate/perfgate/ab"
	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/action"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/confirm"
	"github.com/perfgate/perfgate/tracker/model"
)

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
	fmt.Fprintf(a.e.Stderr, "perfgate: confirming %s: %d more A/B rounds of %s\n", runner.Plural(len(targets), "regression"), rounds, strings.Join(quoted, ", "))
	cbase, chead, err := a.ab.Rounds(ctx, regexp.MustCompile("^("+strings.Join(quoted, "|")+")$"), rounds)
	if err == nil {
		err = ab.HeadRuns(chead, runner.ConfirmRun(head[0].Run), "c")
	}
	if err != nil {
		fmt.Fprintf(a.e.Stderr, "perfgate: the confirmation re-run failed, the regressions stand: %v\n", err)
		return first, confirm.Failed(first, rounds, err.Error()), nil
	}
	runner.KeepTargets(cbase, targets)
	runner.KeepTargets(chead, targets)
	rerun, err1 := action.CompareAB(cbase, chead, first.Options)
	combined, err2 := action.CompareAB(append(slices.Clone(base), cbase...), append(slices.Clone(head), chead...), first.Options)
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

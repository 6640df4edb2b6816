package main

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sethvargo/go-githubactions"

	"github.com/perfgate/perfgate/ab"
	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
)

// The action's modes (the mode input).
const (
	modeHistory     = "history"     // judge against the baseline branch's recorded history
	modeInterleaved = "interleaved" // on pull requests, run base and head alternately here (perfgate ab)
)

// readModeInputs reads the mode and rounds inputs.
func (o *actionOptions) readModeInputs(gha *githubactions.Action) error {
	switch m := strings.TrimSpace(gha.GetInput("mode")); m {
	case "", modeHistory:
		o.mode = modeHistory
	case modeInterleaved:
		o.mode = modeInterleaved
	default:
		return usageError("mode: %q is not history or interleaved", m)
	}
	o.rounds = runner.DefaultActionRounds
	if s := strings.TrimSpace(gha.GetInput("rounds")); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > runner.MaxRounds {
			return usageError("rounds: %q is not an integer from 1 to %d", s, runner.MaxRounds)
		}
		o.rounds = n
	}
	if o.mode == modeInterleaved && len(o.resultFiles) > 0 {
		return usageError("mode: interleaved runs the suites of both sides itself; leave results-file empty")
	}
	return nil
}

// measureAB runs the config's suites on the pull request's merge base and
// on the checked-out head alternately on this machine (package ab), and
// returns both sides' rounds. The head's rounds become this job's
// pull-request runs (<job>-r1 …, one run group), which is what the action
// records.
func (a *actionRun) measureAB(ctx context.Context) (base, head []*model.Results, err error) {
	ref, err := a.plan.BaseCommit()
	if err != nil {
		return nil, nil, usageError("%v", err)
	}
	branch := a.plan.BaseRef
	meta := runMetaFlags{testbed: a.e.Getenv("PERFGATE_TESTBED")}
	run, err := meta.resolve(ctx, a.e, time.Now())
	if err != nil {
		return nil, nil, err
	}
	if a.o.filter != nil && !slices.ContainsFunc(a.cfg.Suites, func(s config.Suite) bool { return a.o.filter.MatchString(s.Name) }) {
		return nil, nil, usageError("filter: %q matches no suite of %s", a.o.filter, a.cfg.File)
	}
	o := ab.Options{Base: ref, BaseBranch: branch, ConfigPath: a.cfg.File, Dir: a.cfg.Dir, Order: ab.OrderABBA,
		Repo: defaultRepo(ctx, a.e), Testbed: run.Testbed}
	s, err := ab.Open(ctx, newRunner(a.e), o)
	if err != nil {
		return nil, nil, fmt.Errorf("mode: interleaved (the workflow must check out with fetch-depth: 0 so the base is there): %w", err)
	}
	a.ab = s // run removes the worktree, after the confirmation
	fmt.Fprintf(a.e.Stderr, "perfgate: interleaved A/B, %d rounds (ABBA) on %s: base %s (merge base with %s), head %s\n",
		a.o.rounds, run.Testbed, ab.ShortSHA(s.BaseSHA), ref, s.HeadLabel)
	baseRounds, headRounds, err := s.Rounds(ctx, a.o.filter, a.o.rounds)
	if err != nil {
		return nil, nil, err
	}
	if err := ab.HeadRuns(headRounds, run, "r"); err != nil {
		return nil, nil, err
	}
	return baseRounds, headRounds, nil
}

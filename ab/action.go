package ab

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/confirm"
	"github.com/perfgate/perfgate/tracker/model"
)

// Interleaved measures a pull request as the action's interleaved
// baseline does: a Session opened with o on cfg, the suites only matches
// (all when nil) run on the merge base and on the head alternately, in
// ABBA order, rounds times. The head's rounds become the job's
// pull-request runs (run, named <job>-r1 …, one run group). The caller
// closes the session, after any confirmation (Session.Confirm).
func Interleaved(ctx context.Context, r *runner.Runner, o Options, cfg *config.Config, only *regexp.Regexp, rounds int, run model.Run) (s *Session, base, head []*model.Results, err error) {
	if only != nil && !slices.ContainsFunc(cfg.Suites, func(s config.Suite) bool { return only.MatchString(s.Name) }) {
		return nil, nil, nil, inputErr("filter: %q matches no suite of %s", only, cfg.File)
	}
	o.ConfigPath, o.Dir, o.Order, o.Testbed = cfg.File, cfg.Dir, OrderABBA, run.Testbed
	if s, err = Open(ctx, r, o); err != nil {
		return nil, nil, nil, fmt.Errorf("baseline: interleaved (the workflow must check out with fetch-depth: 0 so the base is there): %w", err)
	}
	fmt.Fprintf(r.Log, "perfgate: interleaved A/B, %d rounds (ABBA) on %s: base %s (merge base with %s), head %s\n",
		rounds, run.Testbed, model.ShortSHA(s.BaseSHA), o.Base, s.HeadLabel)
	base, head, err = s.Rounds(ctx, only, rounds)
	if err == nil {
		err = HeadRuns(head, run, "r")
	}
	if err != nil {
		s.Close()
		return nil, nil, nil, err
	}
	return s, base, head, nil
}

// Confirm re-runs the suites of first's regressions as more rounds, base
// and head alternately, and re-judges with judge the head's rounds, old and
// new, against the base's rounds, old and new. It returns the final
// comparison, the confirmation and the head's new rounds (nil when none ran).
func (s *Session) Confirm(ctx context.Context, base, head []*model.Results, first *compare.Comparison,
	judge func(base, head []*model.Results) (*compare.Comparison, error)) (*compare.Comparison, *confirm.Confirmation, []*model.Results) {
	targets := confirm.Targets(first)
	var quoted []string
	skipped := map[model.Key]string{}
	for _, k := range targets {
		switch {
		case !slices.ContainsFunc(s.HeadConfig.Suites, func(su config.Suite) bool { return su.Name == k.Suite }):
			skipped[k] = fmt.Sprintf("suite %s is not a suite of %s", k.Suite, s.HeadConfig.File)
		case !slices.Contains(quoted, regexp.QuoteMeta(k.Suite)):
			quoted = append(quoted, regexp.QuoteMeta(k.Suite))
		}
	}
	if len(quoted) == 0 {
		final, conf := confirm.Apply(first, nil, nil, 0, skipped)
		return final, conf, nil
	}
	rounds := confirm.DefaultRounds
	fmt.Fprintf(s.r.Log, "perfgate: confirming %s: %d more A/B rounds of %s\n", runner.Plural(len(targets), "regression"), rounds, strings.Join(quoted, ", "))
	cbase, chead, err := s.Rounds(ctx, regexp.MustCompile("^("+strings.Join(quoted, "|")+")$"), rounds)
	if err == nil {
		err = HeadRuns(chead, runner.ConfirmRun(head[0].Run), "c")
	}
	if err != nil {
		fmt.Fprintf(s.r.Log, "perfgate: the confirmation re-run failed, the regressions stand: %v\n", err)
		return first, confirm.Failed(first, rounds, err.Error()), nil
	}
	runner.KeepTargets(cbase, targets)
	runner.KeepTargets(chead, targets)
	rerun, err1 := judge(cbase, chead)
	combined, err2 := judge(append(slices.Clone(base), cbase...), append(slices.Clone(head), chead...))
	if err1 != nil || err2 != nil {
		return first, confirm.Failed(first, rounds, fmt.Sprint(err1, err2)), nil
	}
	final, conf := confirm.Apply(first, rerun, combined, rounds, skipped)
	return final, conf, chead
}

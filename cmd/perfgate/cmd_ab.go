package main

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/perfgate/perfgate/ab"
	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/report"
)

func init() {
	commands.Register(&cli.Command{Name: "ab", Run: runAB})
}

// abFlags are perfgate ab's flags.
type abFlags struct {
	o                      ab.Options
	only, outBase, outHead string
	rounds                 int
	cf                     compareFlags
}

func runAB(ctx context.Context, args []string, e *cli.Env) error {
	fs := cli.NewFlagSet(e, "ab", "--base REF [--rounds R] [--config FILE] [flags]")
	var f abFlags
	fs.StringVar(&f.o.Base, "base", e.GetenvOr("PERFGATE_AB_BASE", ""), "git `ref` to compare against; its merge base with HEAD is checked out (env PERFGATE_AB_BASE)")
	fs.IntVar(&f.rounds, "rounds", ab.DefaultRounds, fmt.Sprintf("rounds; each runs every suite once per side, each in its own process. Default %d, more than the action's %d: ab reads no stored history (the action reads up to %d baseline jobs), so the spread between processes comes from these rounds alone; %d cost %d runs of each suite (docs/rounds.md)",
		ab.DefaultRounds, runner.DefaultActionRounds, compare.DefaultHistory, ab.DefaultRounds, 2*ab.DefaultRounds))
	fs.StringVar(&f.o.ConfigPath, "config", e.GetenvOr("PERFGATE_CONFIG", ""), "the `file` declaring the suites (env PERFGATE_CONFIG; default: .perfgate.yml at the repository root)")
	fs.StringVar(&f.o.Dir, "repo", ".", "a `directory` inside the git repository")
	fs.StringVar(&f.o.Order, "order", ab.OrderABBA, "round order: abba (base,head then head,base: cancels linear drift) or abab")
	fs.StringVar(&f.only, "suite", "", "run only suites whose names match this `regexp`")
	fs.BoolVar(&f.o.Fast, "fast", false, "lower GPU time budgets (noisier; for smoke runs)")
	fs.StringVar(&f.outBase, "out-base", "", "also write the base side's pooled results to this `file`")
	fs.StringVar(&f.outHead, "out-head", "", "also write the head side's pooled results to this `file`")
	fs.StringVar(&f.o.Testbed, "testbed", e.GetenvOr(runner.RunSetting("testbed").Env, ""), "testbed name for the results (env "+runner.RunSetting("testbed").Env+"; default: the host name)")
	f.cf.register(fs, e)
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	opt, only, err := f.validate(fs.NArg())
	if err != nil {
		return err
	}
	f.o.Repo, f.o.Testbed = defaultRepo(ctx, e), cmp.Or(f.o.Testbed, defaultTestbed(e))
	s, err := ab.Open(ctx, newRunner(e), f.o)
	if err != nil {
		return err
	}
	defer s.Close()
	c, base, head, err := s.Compare(ctx, only, f.rounds, opt, cli.FlagsGiven(fs))
	if err != nil {
		return err
	}
	if err := ab.WritePooled(f.outBase, base); err != nil {
		return err
	}
	if err := ab.WritePooled(f.outHead, head); err != nil {
		return err
	}
	fmt.Fprintf(e.Stderr, "perfgate: interleaved A/B, %d rounds (%s) on %s: base %s (merge base of %s), head %s\n",
		f.rounds, strings.ToUpper(f.o.Order), f.o.Testbed, model.ShortSHA(s.BaseSHA), f.o.Base, s.HeadLabel)
	if err := report.Render(e.Stdout, c, nil, f.cf.format); err != nil {
		return err
	}
	return cli.GateErr(c.Gate())
}

func (f *abFlags) validate(nargs int) (compare.Options, *regexp.Regexp, error) {
	if nargs > 0 {
		return compare.Options{}, nil, cli.UsageErrorf("unexpected argument (perfgate ab takes flags only)")
	}
	if err := f.o.Check(f.rounds); err != nil {
		return compare.Options{}, nil, err
	}
	var only *regexp.Regexp
	if f.only != "" {
		var err error
		if only, err = regexp.Compile(f.only); err != nil {
			return compare.Options{}, nil, cli.UsageErrorf("--suite: %v", err)
		}
	}
	opt, err := f.cf.options()
	return opt, only, err
}

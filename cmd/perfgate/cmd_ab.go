package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/ingest"
	"github.com/perfgate/perfgate/tracker/model"
)

func init() {
	register(&command{
		Name:    "ab",
		Summary: "interleaved A/B: run the suites of the merge base and of the working tree alternately on this machine, and compare",
		Run:     runAB,
	})
}

// The round orders of perfgate ab.
const (
	orderABBA = "abba" // base,head / head,base / …: a linear drift cancels within every pair of rounds
	orderABAB = "abab" // base,head every round
)

// abOptions are the parsed flags of perfgate ab.
type abOptions struct {
	base, configPath, repo, order, only, outBase, outHead, testbed string
	baseBranch                                                     string // the base runs' branch label ("" = base)
	rounds                                                         int
	fast                                                           bool
	cf                                                             compareFlags
}

func runAB(ctx context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "ab", "--base REF [--rounds R] [--config FILE] [flags]")
	var o abOptions
	fs.StringVar(&o.base, "base", envDefault(e, "PERFGATE_AB_BASE", ""), "git `ref` to compare against; its merge base with HEAD is checked out (env PERFGATE_AB_BASE)")
	fs.IntVar(&o.rounds, "rounds", 5, "rounds; each runs every suite once per side")
	fs.StringVar(&o.configPath, "config", envDefault(e, "PERFGATE_CONFIG", ""), "the `file` declaring the suites (env PERFGATE_CONFIG; default: .perfgate.yml at the repository root)")
	fs.StringVar(&o.repo, "repo", ".", "a `directory` inside the git repository")
	fs.StringVar(&o.order, "order", orderABBA, "round order: abba (base,head then head,base: cancels linear drift) or abab")
	fs.StringVar(&o.only, "suite", "", "run only suites whose names match this `regexp`")
	fs.BoolVar(&o.fast, "fast", false, "lower GPU time budgets (noisier; for smoke runs)")
	fs.StringVar(&o.outBase, "out-base", "", "also write the base side's pooled results to this `file`")
	fs.StringVar(&o.outHead, "out-head", "", "also write the head side's pooled results to this `file`")
	fs.StringVar(&o.testbed, "testbed", envDefault(e, "PERFGATE_TESTBED", ""), "testbed name for the results (env PERFGATE_TESTBED; default: the host name)")
	o.cf.register(fs, e)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	opt, only, err := o.validate(fs.NArg())
	if err != nil {
		return err
	}
	s, err := newABSession(ctx, e, &o)
	if err != nil {
		return err
	}
	defer s.cleanup()
	base, head, err := s.runRounds(ctx, only, o.rounds)
	if err != nil {
		return err
	}
	opt.Interleaved = true
	opt = applyConfig(opt, s.headCfg, flagsGiven(fs), resultKeys(base, head))
	c, err := compare.Compare(base, head, opt)
	if err != nil {
		return usageError("%v", err)
	}
	if err := o.writeOutputs(base, head); err != nil {
		return err
	}
	fmt.Fprintf(e.Stderr, "perfgate: interleaved A/B, %d rounds (%s) on %s: base %s (merge base of %s), head %s\n",
		o.rounds, strings.ToUpper(o.order), s.testbed, shortSHA(s.baseSHA), o.base, s.headLabel)
	if err := renderComparison(e.Stdout, c, o.cf.format); err != nil {
		return err
	}
	if c.Failed() {
		return errRegression
	}
	return nil
}

func (o *abOptions) validate(nargs int) (compare.Options, *regexp.Regexp, error) {
	var only *regexp.Regexp
	switch {
	case nargs > 0:
		return compare.Options{}, nil, usageError("unexpected argument (perfgate ab takes flags only)")
	case o.base == "":
		return compare.Options{}, nil, usageError("-base: required (a git ref such as main or origin/main)")
	case o.rounds < 1 || o.rounds > 1000:
		return compare.Options{}, nil, usageError("-rounds: must be from 1 to 1000, got %d", o.rounds)
	case o.order != orderABBA && o.order != orderABAB:
		return compare.Options{}, nil, usageError("-order: must be abba or abab, got %q", o.order)
	}
	if o.only != "" {
		var err error
		if only, err = regexp.Compile(o.only); err != nil {
			return compare.Options{}, nil, usageError("-suite: %v", err)
		}
	}
	opt, err := o.cf.options()
	return opt, only, err
}

func (o *abOptions) writeOutputs(base, head []*model.Results) error {
	for _, w := range []struct {
		path string
		side []*model.Results
	}{{o.outBase, base}, {o.outHead, head}} {
		if w.path == "" {
			continue
		}
		r, err := poolRounds(w.side)
		if err != nil {
			return err
		}
		if err := model.WriteFile(w.path, r); err != nil {
			return &model.InfraError{Op: "write " + w.path, Err: err}
		}
	}
	return nil
}

// poolRounds merges one side's rounds into one results document.
func poolRounds(rounds []*model.Results) (*model.Results, error) {
	parts := make([][]model.Benchmark, len(rounds))
	for i, r := range rounds {
		parts[i] = r.Benchmarks
	}
	bs, err := ingest.Merge(parts...)
	if err != nil {
		return nil, err
	}
	r := *rounds[0]
	r.Benchmarks = bs
	return &r, nil
}

// gitIn runs git in dir and returns its trimmed standard output.
func gitIn(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

// loadConfigAt loads the configuration, mapping a missing default file to a
// usage error that says what to do.
func loadConfigAt(path string, explicit bool) (*config.Config, error) {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) && !explicit {
		return nil, usageError("-config: no %s at the repository root (%s); write one (see docs/config.md) or pass -config", config.DefaultFile, path)
	}
	return config.Load(path)
}

// abRunMeta is the run block of one side's round.
func abRunMeta(repo, sha, branch, testbed, group string, started time.Time) model.Run {
	return model.Run{ID: uuid.NewString(), Repo: repo, Commit: sha, Branch: branch, Event: model.EventLocal,
		Testbed: testbed, StartedAt: started.UTC(), Group: group}
}

// abSide is one side of the comparison.
type abSide struct {
	name   string // "base" or "head"
	runner *configRunner
	sha    string
	branch string
	units  []roundUnit // the processes of one round
	out    []*model.Results
}

// sidesOfRound returns the order of the sides in round i (0-based).
func sidesOfRound(order string, i int, base, head *abSide) []*abSide {
	if order == orderABBA && i%2 == 1 {
		return []*abSide{head, base}
	}
	return []*abSide{base, head}
}

// abFilepathRel is filepath.Rel that insists the config is inside the repository.
func abFilepathRel(root, path string) (string, error) {
	rel, err := filepath.Rel(root, path)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", usageError("-config: %s is outside the repository %s", path, root)
	}
	return rel, nil
}

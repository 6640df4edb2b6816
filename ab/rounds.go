package ab

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/google/uuid"

	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/ingest"
	"github.com/perfgate/perfgate/tracker/model"
)

// The round orders.
const (
	OrderABBA = "abba" // base,head / head,base / …: a linear drift cancels within every pair of rounds
	OrderABAB = "abab" // base,head every round
)

// A side is one side of the comparison.
type side struct {
	name   string // "base" or "head"
	cfg    *config.Config
	sha    string
	branch string
	units  []runner.Unit // the processes of one round
	out    []*model.Results
}

// sidesOfRound returns the order of the sides in round i (0-based).
func sidesOfRound(order string, i int, base, head *side) []*side {
	if order == OrderABBA && i%2 == 1 {
		return []*side{head, base}
	}
	return []*side{base, head}
}

// Rounds prepares both sides (the first time), then runs the suites that
// only selects (nil: all) of both sides alternately for rounds rounds, each
// suite of each side in its own perfgate process per round, in a suite
// order rotated every round. It returns each side's rounds.
func (s *Session) Rounds(ctx context.Context, only *regexp.Regexp, rounds int) (base, head []*model.Results, err error) {
	co := runner.ConfigOptions{Only: only, Fast: s.o.Fast}
	headBranch, _ := gitIn(ctx, s.root, "rev-parse", "--abbrev-ref", "HEAD")
	bs := &side{name: "base", cfg: s.baseCfg, sha: s.BaseSHA, branch: first(s.o.BaseBranch, s.o.Base)}
	hs := &side{name: "head", cfg: s.HeadConfig, sha: s.HeadSHA, branch: first(headBranch, "HEAD")}
	for _, sd := range []*side{bs, hs} {
		if sd.units = runner.ConfigUnits(sd.cfg, co); len(sd.units) == 0 {
			return nil, nil, model.SettingError("suite", "no suite of %s matches %q", sd.cfg.File, pattern(only))
		}
		if s.prepared {
			continue
		}
		fmt.Fprintf(s.r.Log, "perfgate: ab: preparing %s (%s)\n", sd.name, sd.cfg.Dir)
		if err := s.r.Prepare(ctx, sd.cfg); err != nil {
			return nil, nil, fmt.Errorf("%s side: %w", sd.name, err)
		}
	}
	s.prepared = true
	for i := range rounds {
		for _, sd := range sidesOfRound(s.o.Order, i, bs, hs) {
			run := model.Run{ID: uuid.NewString(), Repo: s.o.Repo, Commit: sd.sha, Branch: sd.branch, Event: model.EventLocal,
				Testbed: s.o.Testbed, StartedAt: time.Now().UTC(), Group: s.group}
			r, err := s.r.Round(ctx, sd.units, i, run, s.tmp, fmt.Sprintf("ab: round %d/%d, %s", i+1, rounds, sd.name))
			if err != nil {
				return nil, nil, err
			}
			sd.out = append(sd.out, r)
		}
	}
	return bs.out, hs.out, nil
}

// Pool merges one side's rounds into one results document.
func Pool(rounds []*model.Results) (*model.Results, error) {
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

// HeadRuns gives the head side's rounds the run blocks of a job's rounds:
// run's, with the IDs <run.ID>-<prefix>1 … and the group run.Group, else
// run.ID, keeping each round's start time and environment.
func HeadRuns(rounds []*model.Results, run model.Run, prefix string) error {
	for i, h := range rounds {
		r := runner.RoundRun(run, prefix, i+1)
		r.StartedAt, r.Env = h.Run.StartedAt, h.Run.Env
		h.Run = r
		if err := runner.Validate(h); err != nil {
			return err
		}
	}
	return nil
}

func first(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

func pattern(re *regexp.Regexp) string {
	if re == nil {
		return ""
	}
	return re.String()
}

package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/internal/memlimit"
	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/check"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/confirm"
	"github.com/perfgate/perfgate/tracker/model"
)

func init() {
	commands.Register(&cli.Command{Name: "check", Run: runCheck})
}

// checkFlags are check's own flags; compare's verdict flags come from
// compareFlags and the store from storeFlags.
type checkFlags struct {
	candidates  cli.Files
	q           check.Query // the baseline (--baseline-branch, --baseline-jobs, --baseline-testbed)
	config      string
	record      bool
	confirm     bool // re-run the regressions before failing
	confirmRuns int  // rounds of the re-run
	envErr      error
}

func (cf *checkFlags) register(fs *flag.FlagSet, e *cli.Env) {
	fs.Var(&cf.candidates, "candidate", "the candidate's results `FILE` (repeat for shards or repeated runs of one commit)")
	def, err := check.EnvQuery(e.Getenv)
	var se *compare.SettingError
	if errors.As(err, &se) {
		cf.envErr = cli.UsageErrorf("%s: %s", check.QueryEnv[se.Setting], se.Msg)
	}
	fs.StringVar(&cf.q.Branch, "baseline-branch", def.Branch, envUsage("the branch whose runs are the baseline", "baseline-branch"))
	fs.IntVar(&cf.q.Jobs, "baseline-jobs", def.Jobs, envUsage("how many of the latest comparable baseline jobs to pool: runs, or all the shards of a run group", check.SetJobs))
	cli.RenameFlag(fs, e, compare.Lookup(check.SetJobs).Old.Name, check.SetJobs)
	fs.StringVar(&cf.q.Testbed, "baseline-testbed", def.Testbed,
		envUsage("take baseline runs from this testbed `label` instead of the candidate's; GPU, driver and CUDA must still match", "baseline-testbed"))
	fs.StringVar(&cf.config, "config", e.GetenvOr("PERFGATE_CONFIG", ""),
		"the .perfgate.yml whose baseline, thresholds, ignore and better settings are the defaults (env PERFGATE_CONFIG; default: .perfgate.yml at the repository root, if any)")
	fs.BoolVar(&cf.record, "record", false, "also store the candidate runs (pull-request runs are stored but never become baselines)")
	fs.BoolVar(&cf.confirm, "confirm", false, "before failing, re-run the regressed benchmarks in fresh processes (their built-in suite, or their --config suite) and fail only if the regression holds on the first and the re-run rounds together (docs/rounds.md)")
	fs.IntVar(&cf.confirmRuns, "confirm-rounds", confirm.DefaultRounds, "rounds of the --confirm re-run, each suite in a fresh process")
}

func (cf *checkFlags) validate() error {
	var se *compare.SettingError
	switch {
	case cf.envErr != nil:
		return cf.envErr
	case len(cf.candidates) == 0:
		return cli.UsageErrorf("--candidate: name the candidate's results FILE")
	case errors.As(cf.q.Check(), &se):
		return cli.UsageErrorf("--%s: %s", se.Setting, se.Msg)
	case cf.confirmRuns < 1 || cf.confirmRuns > runner.MaxRounds:
		return cli.UsageErrorf("--confirm-rounds: must be from 1 to %d, got %d", runner.MaxRounds, cf.confirmRuns)
	}
	return nil
}

func runCheck(ctx context.Context, args []string, e *cli.Env) error {
	fs := cli.NewFlagSet(e, "check", fmt.Sprintf("[--candidate] FILE... [--config FILE] [--confirm [--confirm-rounds %d]] [--baseline-branch %s] [--baseline-jobs %d] [--baseline-testbed LABEL] [--record] [--store DIR | --db URL] [compare flags]",
		confirm.DefaultRounds, check.DefaultBranch, check.DefaultJobs))
	var (
		cf checkFlags
		vf compareFlags
		sf storeFlags
	)
	cf.register(fs, e)
	vf.register(fs, e)
	vf.registerHistory(fs)
	sf.register(fs, e)
	sf.registerSpool(fs, e)
	files, err := cli.ParseFlagsAndFiles(fs, args)
	if err != nil {
		return err
	}
	cf.candidates = append(cf.candidates, files...) // check pr/*.json, check --candidate pr/*.json
	opt, err := vf.options()
	if err != nil {
		return err
	}
	if err := cf.validate(); err != nil {
		return err
	}
	cfg, err := loadOptionalConfig(ctx, e, cf.config)
	if err != nil {
		return err
	}
	cf.q.History = opt.HistoryJobs
	heap := memlimit.New(e.Getenv) // set once the baseline is read: the peak is in judging
	if sf.dbURL != "" {
		heap.AddProcess(memlimit.PostgresRSS)
	}
	defer heap.Restore()
	cands, err := check.LoadCandidates(cf.candidates)
	if err != nil {
		return err
	}
	policy := check.RecordPolicy{Runs: cf.record, Comparison: true,
		Spool: func(runs []*model.Results, err error) error { return spoolOnFailure(e, sf, runs, err) }}
	st, err := openStore(ctx, sf)
	if err != nil {
		return policy.Fail(cands, err)
	}
	defer st.Close()
	var confirmer check.Confirmer
	if cf.confirm {
		confirmer = check.Rerun{Rerunner: &runner.Confirmer{Runner: newRunner(e), Rounds: cf.confirmRuns, Config: cfg}, Rounds: cf.confirmRuns}
	}
	res, err := check.Run(ctx, check.RunOptions{
		Candidates: cands, Names: cf.candidates,
		Settings: check.Settings{Query: cf.q, Compare: opt},
		Config:   cfg, Explicit: cli.ExplicitSettings(fs, e, check.SettingEnv()),
		Store: st, Confirmer: confirmer, Record: policy, Log: e.Stderr, LimitHeap: heap.Set,
	})
	if err != nil {
		return err
	}
	q := res.Settings.Query
	return finishCheck(e, res.Comparison, res.Confirmation, vf.format, q.Branch, cmp.Or(q.Testbed, res.Comparison.Candidate.Testbed))
}

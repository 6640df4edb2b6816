package main

import (
	"context"
	"flag"
	"strconv"
	"strings"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/check"
	"github.com/perfgate/perfgate/tracker/confirm"
	"github.com/perfgate/perfgate/tracker/model"
)

func init() {
	commands.Register(&cli.Command{Name: "check", Run: runCheck})
}

// checkFlags are check's own flags; compare's verdict flags come from
// compareFlags and the store from storeFlags.
type checkFlags struct {
	candidates   cli.Files
	branch       string
	runs         int
	testbed      string // the testbed label baseline runs are taken from ("" = the candidate's)
	config       string
	record       bool
	confirm      bool // re-run the regressions before failing
	confirmRuns  int  // rounds of the re-run
	runsEnvError error
}

func (cf *checkFlags) register(fs *flag.FlagSet, e *cli.Env) {
	fs.Var(&cf.candidates, "candidate", "the candidate's results `FILE` (repeat for shards or repeated runs of one commit)")
	fs.StringVar(&cf.branch, "baseline-branch", e.GetenvOr("PERFGATE_BASELINE_BRANCH", "main"),
		"the branch whose runs are the baseline (env PERFGATE_BASELINE_BRANCH)")
	runs := 3
	if s := e.Getenv("PERFGATE_BASELINE_RUNS"); s != "" {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			cf.runsEnvError = cli.UsageErrorf("PERFGATE_BASELINE_RUNS: %q is not an integer", s)
		}
		runs = n
	}
	fs.IntVar(&cf.runs, "baseline-runs", runs, "how many of the latest comparable baseline jobs to pool: runs, or all the shards of a run group (env PERFGATE_BASELINE_RUNS)")
	fs.StringVar(&cf.testbed, "baseline-testbed", e.GetenvOr("PERFGATE_BASELINE_TESTBED", ""),
		"take baseline runs from this testbed `label` instead of the candidate's; GPU, driver and CUDA must still match (env PERFGATE_BASELINE_TESTBED)")
	fs.StringVar(&cf.config, "config", e.GetenvOr("PERFGATE_CONFIG", ""),
		"the .perfgate.yml whose baseline, thresholds, ignore and better settings are the defaults (env PERFGATE_CONFIG; default: .perfgate.yml at the repository root, if any)")
	fs.BoolVar(&cf.record, "record", false, "also store the candidate runs (pull-request runs are stored but never become baselines)")
	fs.BoolVar(&cf.confirm, "confirm", false, "before failing, re-run the regressed benchmarks in fresh processes (their built-in suite, or their --config suite) and fail only if the regression holds on the first and the re-run rounds together (docs/rounds.md)")
	fs.IntVar(&cf.confirmRuns, "confirm-rounds", confirm.DefaultRounds, "rounds of the --confirm re-run, each suite in a fresh process")
}

func (cf *checkFlags) validate() error {
	switch {
	case cf.runsEnvError != nil:
		return cf.runsEnvError
	case len(cf.candidates) == 0:
		return cli.UsageErrorf("--candidate: name the candidate's results FILE")
	case cf.branch == "":
		return cli.UsageErrorf("--baseline-branch: must not be empty")
	case cf.runs < 1 || cf.runs > 1000:
		return cli.UsageErrorf("--baseline-runs: must be between 1 and 1000, got %d", cf.runs)
	case cf.confirmRuns < 1 || cf.confirmRuns > runner.MaxRounds:
		return cli.UsageErrorf("--confirm-rounds: must be from 1 to %d, got %d", runner.MaxRounds, cf.confirmRuns)
	}
	return nil
}

func runCheck(ctx context.Context, args []string, e *cli.Env) error {
	fs := cli.NewFlagSet(e.Stderr, "check", "[--candidate] FILE... [--config FILE] [--confirm [--confirm-rounds 3]] [--baseline-branch main] [--baseline-runs 3] [--baseline-testbed LABEL] [--record] [--store DIR | --db URL] [compare flags]")
	var (
		cf  checkFlags
		cmp compareFlags
		sf  storeFlags
	)
	cf.register(fs, e)
	cmp.register(fs, e)
	sf.register(fs, e)
	sf.registerSpool(fs, e)
	files, err := cli.ParseFlagsAndFiles(fs, args)
	if err != nil {
		return err
	}
	cf.candidates = append(cf.candidates, files...) // check pr/*.json, check --candidate pr/*.json
	opt, err := cmp.options()
	if err != nil {
		return err
	}
	if err := cf.validate(); err != nil {
		return err
	}
	cfg, err := loadOptionalConfig(ctx, cf.config)
	if err != nil {
		return err
	}
	res, err := check.Run(ctx, check.RunOptions{
		Files:    cf.candidates,
		Settings: check.Settings{Query: check.Query{Branch: cf.branch, Testbed: cf.testbed, Jobs: cf.runs, History: opt.HistoryJobs}, Compare: opt},
		Config:   cfg, Explicit: cli.ExplicitSettings(fs, e, checkEnv),
		ConfirmRounds: confirmRounds(cf.confirm, cf.confirmRuns), Rerunner: &runner.Confirmer{Runner: newRunner(e), Rounds: cf.confirmRuns, Config: cfg},
		Record: cf.record,
		OpenStore: func(ctx context.Context) (check.Store, func() error, error) {
			st, err := openStore(ctx, sf)
			if err != nil {
				return nil, nil, err
			}
			return st, st.Close, nil
		},
		Spool: func(runs []*model.Results, err error) error { return spoolOnFailure(e, sf, runs, err) },
		Log:   e.Stderr,
	})
	if err != nil {
		return err
	}
	q := res.Settings.Query
	return finishCheck(e, res.Comparison, res.Confirmation, cmp.format, q.Branch, first(q.Testbed, res.Comparison.Candidate.Testbed))
}

// checkEnv are the variables whose setting, like a flag given, wins over
// .perfgate.yml (check.ApplyConfig).
var checkEnv = map[string]string{
	check.SetBranch: "PERFGATE_BASELINE_BRANCH", check.SetRuns: "PERFGATE_BASELINE_RUNS",
	check.SetTestbed: "PERFGATE_BASELINE_TESTBED", check.SetThreshold: "PERFGATE_THRESHOLD",
	check.SetAlpha: "PERFGATE_ALPHA", check.SetCorrection: "PERFGATE_CORRECTION", check.SetMinSamples: "PERFGATE_MIN_SAMPLES",
	check.SetHistory: "PERFGATE_HISTORY",
}

// confirmRounds is the rounds of --confirm's re-run, 0 without --confirm.
func confirmRounds(confirm bool, rounds int) int {
	if !confirm {
		return 0
	}
	return rounds
}

package main

import (
	"context"
	"flag"
	"strconv"
	"strings"

	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/check"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/confirm"
	"github.com/perfgate/perfgate/tracker/model"
)

func init() {
	register(&command{
		Name:    "check",
		Summary: "judge a run against the latest runs of the baseline branch in the history",
		Run:     runCheck,
	})
}

// checkFlags are check's own flags; compare's verdict flags come from
// compareFlags and the store from storeFlags.
type checkFlags struct {
	candidates   resultFiles
	branch       string
	runs         int
	testbed      string // the testbed label baseline runs are taken from ("" = the candidate's)
	config       string
	record       bool
	confirm      bool // re-run the regressions before failing
	confirmRuns  int  // rounds of the re-run
	cfg          *config.Config
	runsEnvError error
}

func (cf *checkFlags) register(fs *flag.FlagSet, e *env) {
	fs.Var(&cf.candidates, "candidate", "the candidate's results `FILE` (repeat for shards or repeated runs of one commit)")
	fs.StringVar(&cf.branch, "baseline-branch", envDefault(e, "PERFGATE_BASELINE_BRANCH", "main"),
		"the branch whose runs are the baseline (env PERFGATE_BASELINE_BRANCH)")
	runs := 3
	if s := e.Getenv("PERFGATE_BASELINE_RUNS"); s != "" {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			cf.runsEnvError = usageError("PERFGATE_BASELINE_RUNS: %q is not an integer", s)
		}
		runs = n
	}
	fs.IntVar(&cf.runs, "baseline-runs", runs, "how many of the latest comparable baseline jobs to pool: runs, or all the shards of a run group (env PERFGATE_BASELINE_RUNS)")
	fs.StringVar(&cf.testbed, "baseline-testbed", envDefault(e, "PERFGATE_BASELINE_TESTBED", ""),
		"take baseline runs from this testbed `label` instead of the candidate's; GPU, driver and CUDA must still match (env PERFGATE_BASELINE_TESTBED)")
	fs.StringVar(&cf.config, "config", envDefault(e, "PERFGATE_CONFIG", ""),
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
		return usageError("--candidate: name the candidate's results FILE")
	case cf.branch == "":
		return usageError("--baseline-branch: must not be empty")
	case cf.runs < 1 || cf.runs > 1000:
		return usageError("--baseline-runs: must be between 1 and 1000, got %d", cf.runs)
	case cf.confirmRuns < 1 || cf.confirmRuns > runner.MaxRounds:
		return usageError("--confirm-rounds: must be from 1 to %d, got %d", runner.MaxRounds, cf.confirmRuns)
	}
	return nil
}

func runCheck(ctx context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "check", "[--candidate] FILE... [--config FILE] [--confirm [--confirm-rounds 3]] [--baseline-branch main] [--baseline-runs 3] [--baseline-testbed LABEL] [--record] [--store DIR | --db URL] [compare flags]")
	var (
		cf  checkFlags
		cmp compareFlags
		sf  storeFlags
	)
	cf.register(fs, e)
	cmp.register(fs, e)
	sf.register(fs, e)
	sf.registerSpool(fs, e)
	files, err := parseFlagsAndFiles(fs, args)
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
	cands, err := check.LoadCandidates(cf.candidates)
	if err != nil {
		return err
	}
	s := check.Settings{Query: check.Query{Branch: cf.branch, Testbed: cf.testbed, Jobs: cf.runs, History: opt.HistoryJobs}, Compare: opt}
	if s, err = cf.applyConfig(ctx, fs, e, s, cands); err != nil {
		return err
	}
	// Only a check asked to store the candidates spools them when the
	// database fails: without --record nothing is stored, spool included.
	spoolIfRecording := func(err error) error {
		if !cf.record {
			return err
		}
		return spoolOnFailure(e, sf, cands, err)
	}
	st, err := openStore(ctx, sf)
	if err != nil {
		return spoolIfRecording(err)
	}
	defer st.Close()
	b, err := check.Baseline(ctx, st, cands, s.Query)
	if err != nil {
		return spoolIfRecording(err)
	}
	c, err := check.Judge(b, cands, s.Query.Jobs, s.Compare)
	if err != nil {
		return err
	}
	var conf *confirm.Confirmation
	if cf.confirm && c.Failed() {
		var rs []*model.Results
		c, conf, rs = check.Confirm(ctx, &runner.Confirmer{Runner: newRunner(e), Rounds: cf.confirmRuns, Config: cf.cfg}, cf.confirmRuns, b, cands, c)
		cands = append(cands, rs...)
		cf.candidates = append(cf.candidates, check.RunNames(rs)...)
	}
	if cf.record {
		if err := check.RecordRuns(ctx, e.Stderr, st, cf.candidates, cands); err != nil {
			return spoolOnFailure(e, sf, cands, err)
		}
		saveComparison(ctx, e, st, c)
	}
	return finishCheck(e, c, conf, cmp.format, s.Query.Branch, first(s.Query.Testbed, c.Candidate.Testbed))
}

// applyConfig takes the defaults the flags leave open from the config file
// (check.ApplyConfig). A flag on the command line or its PERFGATE_*
// variable wins over the file.
func (cf *checkFlags) applyConfig(ctx context.Context, fs *flag.FlagSet, e *env, s check.Settings, cands []*model.Results) (check.Settings, error) {
	cfg, err := loadOptionalConfig(ctx, cf.config)
	if err != nil || cfg == nil {
		return s, err
	}
	cf.cfg = cfg
	set := explicitSettings(fs, e, map[string]string{
		check.SetBranch: "PERFGATE_BASELINE_BRANCH", check.SetRuns: "PERFGATE_BASELINE_RUNS",
		check.SetTestbed: "PERFGATE_BASELINE_TESTBED", check.SetThreshold: "PERFGATE_THRESHOLD",
		check.SetAlpha: "PERFGATE_ALPHA", check.SetCorrection: "PERFGATE_CORRECTION", check.SetMinSamples: "PERFGATE_MIN_SAMPLES",
		check.SetHistory: "PERFGATE_HISTORY",
	})
	return check.ApplyConfig(s, cfg, set, check.Keys(cands)), nil
}

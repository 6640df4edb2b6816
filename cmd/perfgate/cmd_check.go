package main

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/confirm"
	"github.com/perfgate/perfgate/tracker/history"
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
	candidates   resultFiles // the repeatable flag type of cmd_compare.go
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
	cands, err := loadCandidates(cf.candidates)
	if err != nil {
		return err
	}
	if opt, err = cf.applyConfig(ctx, fs, e, opt, cands); err != nil {
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
	b, err := baselineOn(ctx, st, cands, cf.branch, cf.testbed, cf.runs, opt.HistoryJobs)
	if err != nil {
		return spoolIfRecording(err)
	}
	opt.BaselineJobs = cf.runs
	c, err := compare.CompareBaseline(b, cands, opt)
	if err != nil {
		return err
	}
	var conf *confirm.Confirmation
	if cf.confirm && c.Failed() {
		var rs []*model.Results
		c, conf, rs = (&confirmer{e: e, rounds: cf.confirmRuns, cfg: cf.cfg}).confirmAgainst(ctx, b, cands, c, opt)
		cands = append(cands, rs...)
		cf.candidates = append(cf.candidates, runNames(rs)...)
	}
	if cf.record {
		if err := recordAll(ctx, e.Stderr, st, cf.candidates, cands); err != nil {
			return spoolOnFailure(e, sf, cands, err)
		}
		saveComparison(ctx, e, st, c)
	}
	return finishConfirmedCheck(e, c, conf, cmp.format, cf.branch, first(cf.testbed, c.Candidate.Testbed))
}

// applyConfig takes the defaults the flags leave open from the config file:
// baseline.branch, runs and testbed, and the statistics settings
// (applyConfig of configoptions.go). A flag on the command line or its
// PERFGATE_* variable wins over the file.
func (cf *checkFlags) applyConfig(ctx context.Context, fs *flag.FlagSet, e *env, opt compare.Options, cands []*model.Results) (compare.Options, error) {
	cfg, err := loadOptionalConfig(ctx, cf.config)
	if err != nil || cfg == nil {
		return opt, err
	}
	cf.cfg = cfg
	set := explicitSettings(fs, e, map[string]string{
		"baseline-branch": "PERFGATE_BASELINE_BRANCH", "baseline-runs": "PERFGATE_BASELINE_RUNS",
		"baseline-testbed": "PERFGATE_BASELINE_TESTBED", "threshold": "PERFGATE_THRESHOLD",
		"alpha": "PERFGATE_ALPHA", "correction": "PERFGATE_CORRECTION", "min-samples": "PERFGATE_MIN_SAMPLES",
		"history": "PERFGATE_HISTORY",
	})
	b := cfg.Baseline
	if b.Branch != "" && !set["baseline-branch"] {
		cf.branch = b.Branch
	}
	if b.Runs > 0 && !set["baseline-runs"] {
		cf.runs = b.Runs
	}
	if b.Testbed != "" && !set["baseline-testbed"] {
		cf.testbed = b.Testbed
	}
	if b.History > 0 && !set["history"] {
		opt.HistoryJobs = b.History
	}
	return applyConfig(opt, cfg, set, resultKeys(cands)), nil
}

// loadCandidates loads the candidate files, which must be distinct runs of
// one testbed.
func loadCandidates(files []string) ([]*model.Results, error) {
	cands, err := loadResults(files)
	if err != nil {
		return nil, err
	}
	if err := distinctRuns(files, cands); err != nil {
		return nil, err
	}
	fp := model.FingerprintOf(&cands[0].Run)
	for i, r := range cands[1:] {
		if ok, why := model.Comparable(fp, model.FingerprintOf(&r.Run)); !ok {
			return nil, &model.InputError{File: files[i+1], Path: "$.run",
				Msg: fmt.Sprintf("ran on another testbed than %s (%s): candidates must come from one testbed", files[0], why)}
		}
	}
	return cands, nil
}

// checkAgainst compares the candidates with the latest n comparable runs of
// branch on the first candidate's testbed. No candidate run is ever its own
// baseline.
func checkAgainst(ctx context.Context, st history.BaselineSource, cands []*model.Results, branch string, n int, opt compare.Options) (*compare.Comparison, error) {
	return checkAgainstOn(ctx, st, cands, branch, "", n, opt)
}

// checkAgainstOn is checkAgainst with the baseline runs taken from the
// testbed label testbed ("" = the first candidate's). Only the label
// changes: the GPU model, driver major and CUDA version must still match the
// candidate's, so a baseline from another runner of the same kind is used
// and one from other hardware is still incomparable.
func checkAgainstOn(ctx context.Context, st history.BaselineSource, cands []*model.Results, branch, testbed string, n int, opt compare.Options) (*compare.Comparison, error) {
	b, err := baselineOn(ctx, st, cands, branch, testbed, n, opt.HistoryJobs)
	if err != nil {
		return nil, err
	}
	opt.BaselineJobs = n
	return compare.CompareBaseline(b, cands, opt)
}

// baselineOn is the baseline checkAgainstOn compares with: the runs of the
// latest max(n, historyJobs) comparable jobs; the caller judges against the
// newest n (compare.Options.BaselineJobs) and the rest inform the spread.
func baselineOn(ctx context.Context, st history.BaselineSource, cands []*model.Results, branch, testbed string, n, historyJobs int) (*model.Baseline, error) {
	first := &cands[0].Run
	// The candidates' own jobs may be stored already (check --record, or the
	// shards of a sharded job recorded one by one): ask for that many more
	// jobs, then drop them.
	jobs := max(n, historyJobs)
	q := model.BaselineQuery{Repo: first.Repo, Branch: branch, Testbed: model.FingerprintOf(first),
		Runs: jobs + len(candidateJobs(cands)), Exclude: first.ID}
	if testbed != "" {
		q.Testbed.Testbed = testbed
	}
	b, err := st.Baseline(ctx, q)
	if err != nil {
		return nil, err
	}
	dropCandidates(b, cands, jobs)
	if len(b.Incomparable) > n {
		b.Incomparable = b.Incomparable[:n]
	}
	return b, nil
}

// candidateJobs returns the jobs (model.JobKey) the candidate runs belong to.
func candidateJobs(cands []*model.Results) map[model.JobKey]bool {
	jobs := map[model.JobKey]bool{}
	for _, c := range cands {
		jobs[c.Run.JobKey()] = true
	}
	return jobs
}

// dropCandidates removes from a baseline the candidates' own jobs (a
// sharded candidate's sibling shards included: the store excluded only the
// first candidate run) and keeps every shard of the n newest remaining
// jobs. b.Runs is newest first, so jobs appear in newest-shard order.
func dropCandidates(b *model.Baseline, cands []*model.Results, n int) {
	own := candidateJobs(cands)
	kept := map[model.JobKey]bool{}
	var runs []*model.Results
	var used []model.RunRef
	for i, r := range b.Runs {
		job := r.Run.JobKey()
		if own[job] || (!kept[job] && len(kept) == n) {
			continue
		}
		kept[job] = true
		runs, used = append(runs, r), append(used, b.Used[i])
	}
	b.Runs, b.Used = runs, used
	if len(b.Incomparable) > n {
		b.Incomparable = b.Incomparable[:n]
	}
}

// finishCheck prints the report, notes on stderr when there was nothing to
// compare with, and turns a regression into exit code 1.
func finishCheck(e *env, c *compare.Comparison, format, branch string) error {
	return finishCheckOn(e, c, format, branch, c.Candidate.Testbed)
}

// finishCheckOn is finishCheck for baseline runs taken from testbed.
func finishCheckOn(e *env, c *compare.Comparison, format, branch, testbed string) error {
	return finishConfirmedCheck(e, c, nil, format, branch, testbed)
}

// finishConfirmedCheck is finishCheckOn with what re-running the
// regressions showed (nil: not re-run).
func finishConfirmedCheck(e *env, c *compare.Comparison, conf *confirm.Confirmation, format, branch, testbed string) error {
	if err := renderConfirmed(e.Stdout, c, conf, format); err != nil {
		return err
	}
	switch {
	case len(c.Baseline) == 0 && len(c.Incomparable) == 0:
		fmt.Fprintf(e.Stderr, "perfgate: no baseline yet: the history holds no %s run on testbed %s, so every benchmark is insufficient; record %s runs first ('perfgate record FILE', or 'perfgate check --record' on %s)\n",
			branch, orAny(testbed), branch, branch)
	case len(c.Baseline) == 0:
		fmt.Fprintf(e.Stderr, "perfgate: no comparable baseline: %d %s run(s) passed over (%s); nothing was judged.\n",
			len(c.Incomparable), branch, c.Incomparable[0].Reason)
	}
	if c.Failed() {
		return errRegression
	}
	return nil
}

func orAny(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

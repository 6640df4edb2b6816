package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sethvargo/go-githubactions"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/githubapi"
	"github.com/perfgate/perfgate/db/filestore"
	"github.com/perfgate/perfgate/db/open"
	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/action"
	"github.com/perfgate/perfgate/tracker/check"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/spool"
)

func init() {
	register(&command{
		Name:    "action",
		Summary: "run as the GitHub Action: inputs from INPUT_*, the event from GITHUB_* (docs/action.md)",
		Run:     runAction,
	})
}

// actionOptions is everything perfgate action acts on, read from the
// inputs (INPUT_*) and the runner's environment (GITHUB_*).
type actionOptions struct {
	token, dbURL, storeDir, config string
	spoolDir                       string // runs the database could not take wait here
	resultFiles                    []string
	filter                         *regexp.Regexp  // suites to run or judge (nil: all)
	inputsSet                      map[string]bool // statistics inputs given (they win over the config)
	compare                        compare.Options
	baselineRuns                   int
	baselineTestbed                string // the testbed label baselines come from ("" = the candidate's)
	mode                           string // modeHistory or modeInterleaved
	preRun                         string // the pre-run-checks policy: preRunWarn, preRunStrict, preRunOff
	rounds                         int    // processes per suite (history mode) or A/B rounds (interleaved)
	confirm                        bool   // re-run the regressions of a pull request before failing
	comment                        action.CommentPolicy
	shard                          action.Shard // this job's shard of a sharded job (cmd_action_shards.go)
	shardGroup                     string       // the run group of a sharded job's runs
	inputs                         action.Inputs
	env                            action.Env
	eventPath, apiURL, reportPath  string
	githubTimeout, dbTimeout       time.Duration // each GitHub request's and each database operation's deadline
	notify                         action.NotifyPolicy
	dashboardURL                   string // where perfgate site is published ("" for none)
}

func runAction(ctx context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "action", "(no flags: configured by the GitHub Action's inputs, see docs/action.md)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("action: unexpected argument %q (it takes its inputs from INPUT_* variables)", fs.Arg(0))
	}
	if e.Getenv("GITHUB_ACTIONS") != "true" {
		return errNotInActions
	}
	// perfgate's own workflow commands go to the log as they are; every
	// other line passes through an action.LogWriter, which keeps hostile text
	// (benchmark names, run ids, messages) from being read as a command.
	gha := githubactions.New(githubactions.WithGetenv(e.Getenv), githubactions.WithWriter(e.Stdout))
	stdout, stderr := action.NewLogWriter(e.Stdout), action.NewLogWriter(e.Stderr)
	e.Stdout, e.Stderr = stdout, stderr
	defer stdout.Flush()
	defer stderr.Flush()
	// Mask before anything else is printed.
	for _, s := range action.Secrets(gha.GetInput("github-token"), gha.GetInput("database-url")) {
		gha.AddMask(s)
	}
	o, err := readActionOptions(gha, e)
	if err != nil {
		return err
	}
	cfg, err := loadActionConfig(ctx, o)
	if err != nil {
		return err
	}
	o.applyConfigDefaults(cfg)
	event, err := readEvent(o.eventPath)
	if err != nil {
		return err
	}
	plan, err := action.Decide(o.env, event, o.inputs)
	if err != nil {
		return planError(gha, err)
	}
	fmt.Fprintf(e.Stderr, "perfgate: %s on %s (%s): mode %s, baseline branch %s\n",
		plan.Event, plan.Repo, shortSHA(plan.HeadSHA), plan.Mode, plan.BaselineBranch)
	a := &actionRun{e: e, gha: gha, o: o, cfg: cfg, plan: plan}
	return a.run(ctx)
}

// errNotInActions answers 'perfgate action' run by hand: it reads its
// inputs and the event from a GitHub Actions job, so anything it said
// about them (".perfgate.yml: cannot read") would mislead.
var errNotInActions = usageError("action: not running in GitHub Actions (GITHUB_ACTIONS is not \"true\"): it is the GitHub Action's entry point and reads its inputs (INPUT_*) and the event (GITHUB_*) from the job. " +
	"To try a workflow locally, run it with act (docs/action.md, \"Trying it locally\"); to judge results by hand, use 'perfgate check' or 'perfgate compare'")

// planError maps the event decision's failures: a refused fork is exit 3
// (the job must not go green by accident), an unsupported event or a
// malformed environment exit 2.
func planError(gha *githubactions.Action, err error) error {
	var fe *action.ForkError
	if errors.As(err, &fe) {
		gha.WithFieldsMap(map[string]string{"title": "perfgate refused a fork"}).Errorf("%s", fe.Error())
		return &exitError{code: exitInfra, err: err}
	}
	return &exitError{code: exitBadInput, err: err}
}

// readActionOptions reads and checks the inputs; a bad one is a usage
// error naming it.
func readActionOptions(gha *githubactions.Action, e *env) (*actionOptions, error) {
	o := &actionOptions{
		token: gha.GetInput("github-token"), dbURL: gha.GetInput("database-url"),
		storeDir: gha.GetInput("store-dir"), config: gha.GetInput("config"),
		compare: compare.DefaultOptions(), baselineRuns: 3,
		env: action.Env{
			EventName: e.Getenv("GITHUB_EVENT_NAME"), Repository: e.Getenv("GITHUB_REPOSITORY"), SHA: e.Getenv("GITHUB_SHA"),
			Ref: e.Getenv("GITHUB_REF"), RefName: e.Getenv("GITHUB_REF_NAME"),
			ServerURL: envDefault(e, "GITHUB_SERVER_URL", "https://github.com"), RunID: e.Getenv("GITHUB_RUN_ID"),
			Workflow: e.Getenv("GITHUB_WORKFLOW"), Job: e.Getenv("GITHUB_JOB"), BaseRef: e.Getenv("GITHUB_BASE_REF"),
		},
		eventPath: e.Getenv("GITHUB_EVENT_PATH"), apiURL: e.Getenv("GITHUB_API_URL"),
	}
	o.resultFiles = splitList(gha.GetInput("results-file"))
	o.spoolDir = spool.DefaultDir
	if o.storeDir == "" {
		o.storeDir = filestore.DefaultDir
	}
	if cache := e.Getenv("RUNNER_TOOL_CACHE"); cache != "" {
		// Outside the workspace, which actions/checkout cleans.
		if gha.GetInput("store-dir") == "" {
			o.storeDir = filepath.Join(cache, "perfgate", "store")
		}
		o.spoolDir = filepath.Join(cache, "perfgate", "spool")
	}
	o.spoolDir = envDefault(e, "PERFGATE_SPOOL", o.spoolDir)
	o.reportPath = filepath.Join(envDefault(e, "RUNNER_TEMP", "."), "perfgate-report.md")
	o.inputsSet = map[string]bool{}
	for _, name := range []string{"threshold", "alpha"} {
		o.inputsSet[name] = strings.TrimSpace(gha.GetInput(name)) != ""
	}
	var err error
	if f := gha.GetInput("filter"); f != "" {
		if o.filter, err = regexp.Compile(f); err != nil {
			return nil, usageError("filter: %v", err)
		}
	}
	if s := strings.TrimSpace(gha.GetInput("threshold")); s != "" {
		if o.compare.Threshold, err = compare.ParseThreshold(s); err != nil {
			return nil, usageError("threshold: %v", err)
		}
	}
	if o.compare.Alpha, err = inputFloat(gha, "alpha", 0.01, 0, 1); err != nil {
		return nil, err
	}
	o.inputs.BaselineBranch = gha.GetInput("baseline-branch")
	bools := []struct {
		name string
		def  bool
		dst  *bool
	}{{"fail-on-regression", true, &o.inputs.FailOnRegression}, {"record", false, &o.inputs.Record}, {"allow-forks", false, &o.inputs.AllowForks}, {"confirm", true, &o.confirm}}
	for _, b := range bools {
		if *b.dst, err = inputBool(gha, b.name, b.def); err != nil {
			return nil, err
		}
	}
	if o.comment, err = action.ParseCommentPolicy(gha.GetInput("comment")); err != nil {
		return nil, &exitError{code: exitBadInput, err: err}
	}
	if err := o.readModeInputs(gha); err != nil {
		return nil, err
	}
	if err := o.readShardInputs(gha, e); err != nil {
		return nil, err
	}
	o.inputs.Interleaved = o.mode == modeInterleaved
	o.preRun = first(strings.TrimSpace(gha.GetInput("pre-run-checks")), runner.PreRunWarn)
	if !slices.Contains(runner.PreRunPolicies, o.preRun) {
		return nil, usageError("pre-run-checks: %q is not %s", o.preRun, strings.Join(runner.PreRunPolicies, ", "))
	}
	if err := o.readTimeouts(gha, e); err != nil {
		return nil, err
	}
	if err := o.readNotifyInputs(gha); err != nil {
		return nil, err
	}
	return o, nil
}

// inputFloat reads a numeric input within (lo, hi]; for threshold lo itself
// is allowed.
func inputFloat(gha *githubactions.Action, name string, def, lo, hi float64) (float64, error) {
	s := strings.TrimSpace(gha.GetInput(name))
	if s == "" {
		return def, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < lo || v > hi || (name == "alpha" && (v == lo || v == hi)) {
		return 0, usageError("%s: %q is not a number in range (%v to %v)", name, s, lo, hi)
	}
	return v, nil
}

// readTimeouts reads github-timeout and database-timeout, which default to
// PERFGATE_GITHUB_TIMEOUT and PERFGATE_DB_TIMEOUT, then to the built-in
// deadlines.
func (o *actionOptions) readTimeouts(gha *githubactions.Action, e *env) error {
	for _, in := range []struct {
		name, env string
		def       time.Duration
		dst       *time.Duration
	}{
		{"github-timeout", "PERFGATE_GITHUB_TIMEOUT", githubapi.DefaultTimeout, &o.githubTimeout},
		{"database-timeout", "PERFGATE_DB_TIMEOUT", open.DefaultTimeout, &o.dbTimeout},
	} {
		s := firstNonEmpty(strings.TrimSpace(gha.GetInput(in.name)), e.Getenv(in.env))
		if s == "" {
			*in.dst = in.def
			continue
		}
		d, err := parseDuration(in.name, s)
		if err != nil {
			return err
		}
		*in.dst = d
	}
	return nil
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

// inputBool reads a true/false input, as the runner spells YAML booleans.
func inputBool(gha *githubactions.Action, name string, def bool) (bool, error) {
	switch s := strings.ToLower(strings.TrimSpace(gha.GetInput(name))); s {
	case "":
		return def, nil
	case "true":
		return true, nil
	case "false":
		return false, nil
	default:
		return false, usageError("%s: %q is not true or false", name, s)
	}
}

// readEvent reads the webhook payload GITHUB_EVENT_PATH names.
func readEvent(path string) ([]byte, error) {
	if path == "" {
		return nil, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, usageError("GITHUB_EVENT_PATH: %v", err)
	}
	return b, nil
}

// loadActionResults reads the results-file inputs, or runs the suites of
// cfg; the filter input selects suites either way.
func loadActionResults(ctx context.Context, e *env, o *actionOptions, cfg *config.Config) ([]*model.Results, []string, error) {
	if len(o.resultFiles) > 0 {
		runs, err := check.LoadCandidates(o.resultFiles)
		if err == nil && o.filter != nil {
			runs, err = filterSuites(runs, o.filter)
		}
		return runs, o.resultFiles, err
	}
	runs, err := runActionSuites(ctx, e, cfg, o.filter, o.rounds)
	if err != nil {
		return nil, nil, err
	}
	return runs, check.RunNames(runs), nil
}

// githubClients makes the GitHub clients of the check mode.
func githubClients(o *actionOptions, e *env) (*action.GitHub, error) {
	if o.token == "" {
		return nil, usageError("github-token: empty; the check mode needs it to comment and set the status")
	}
	c, err := githubapi.New(o.apiURL, o.token, githubapi.Options{Timeout: o.githubTimeout})
	if err != nil {
		return nil, usageError("%v", err)
	}
	override := e.Getenv("PERFGATE_GITHUB_LOGIN")
	return &action.GitHub{Comments: c.Comments(), Statuses: c.Statuses(),
		Login: func(ctx context.Context) (string, error) { return c.Login(ctx, override) }}, nil
}

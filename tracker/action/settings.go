package action

import (
	"fmt"
	"math"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/perfgate/perfgate/tracker/check"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/units"
)

// The baselines a pull request is judged against (the baseline input).
const (
	BaselineHistory     = "history"     // the baseline branch's recorded history
	BaselineInterleaved = "interleaved" // base and head run alternately on the runner (perfgate ab)
)

// MaxShards bounds the shards input: a matrix holds at most 256 jobs.
const MaxShards = 256

// Settings are the action's inputs (INPUT_*) and the runner's environment
// (GITHUB_*, RUNNER_*, PERFGATE_*), read and checked: everything a run of
// the action acts on besides the event and the config file.
type Settings struct {
	Token, DatabaseURL, StoreDir, Config string
	SpoolDir                             string // runs the database could not take wait here
	ResultFiles                          []string
	Filter                               *regexp.Regexp  // suites to run or judge (nil: all)
	Explicit                             map[string]bool // statistics inputs given (they win over the config)
	Compare                              compare.Options
	BaselineJobs                         int
	BaselineTestbed                      string // the testbed label baselines come from ("" = the candidate's)
	Baseline                             string // BaselineHistory or BaselineInterleaved
	PreRun                               string // the pre-run-checks policy (one of Defaults.PreRunPolicies)
	Rounds                               int    // processes per suite (history) or A/B rounds (interleaved)
	Confirm                              bool   // re-run the regressions of a pull request before failing
	Comment                              CommentPolicy
	Shard                                Shard  // this job's shard of a sharded job
	ShardGroup                           string // the run group of a sharded job's runs
	Inputs                               Inputs
	Env                                  Env
	APIURL, ReportPath                   string
	GitHubTimeout, DBTimeout             time.Duration // each GitHub request's and each database operation's deadline
	Notify                               NotifyPolicy
	DashboardURL                         string // where perfgate site is published ("" for none)
	// SkipUnchanged: pull requests skip benchmarks whose kernels are
	// unchanged since the baseline (skip-unchanged-kernels, skip.go).
	SkipUnchanged bool
	// Warnings are deprecated inputs used, to show as annotations.
	Warnings []string
}

// Defaults are the values other packages own that the inputs fall back
// to or are checked against.
type Defaults struct {
	StoreDir, SpoolDir       string
	GitHubTimeout, DBTimeout time.Duration
	Rounds, MaxRounds        int
	PreRunPolicies           []string // the first is the default
}

// ReadSettings reads the inputs through input (the value of an input by
// its name, as actions/toolkit's getInput) and the environment through
// getenv. A bad input is a *model.InputError naming it.
func ReadSettings(input, getenv func(string) string, d Defaults) (*Settings, error) {
	in := func(name string) string { return strings.TrimSpace(input(name)) }
	s := &Settings{
		Token: input("github-token"), DatabaseURL: input("database-url"), StoreDir: input("store-dir"), Config: input("config"),
		Compare: compare.DefaultOptions(), BaselineJobs: check.DefaultJobs, ResultFiles: splitList(input("results-file")),
		Env: Env{
			EventName: getenv("GITHUB_EVENT_NAME"), Repository: getenv("GITHUB_REPOSITORY"), SHA: getenv("GITHUB_SHA"),
			Ref: getenv("GITHUB_REF"), RefName: getenv("GITHUB_REF_NAME"),
			ServerURL: firstSet(getenv("GITHUB_SERVER_URL"), "https://github.com"), RunID: getenv("GITHUB_RUN_ID"),
			Workflow: getenv("GITHUB_WORKFLOW"), Job: getenv("GITHUB_JOB"), BaseRef: getenv("GITHUB_BASE_REF"),
		},
		APIURL:     getenv("GITHUB_API_URL"),
		ReportPath: filepath.Join(firstSet(getenv("RUNNER_TEMP"), "."), "perfgate-report.md"),
	}
	s.readPaths(getenv, d)
	steps := []func(func(string) string, func(string) string, Defaults) error{
		s.readStatistics, s.readPolicies, s.readBaseline, s.readShards, s.readTimeouts, s.readNotify, s.readSkip,
	}
	for _, step := range steps {
		if err := step(in, getenv, d); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// readPaths settles the store and spool directories: under the runner's
// tool cache when there is one, outside the workspace that
// actions/checkout cleans.
func (s *Settings) readPaths(getenv func(string) string, d Defaults) {
	s.SpoolDir = d.SpoolDir
	if cache := getenv("RUNNER_TOOL_CACHE"); cache != "" {
		if s.StoreDir == "" {
			s.StoreDir = filepath.Join(cache, "perfgate", "store")
		}
		s.SpoolDir = filepath.Join(cache, "perfgate", "spool")
	}
	s.StoreDir = firstSet(s.StoreDir, d.StoreDir)
	s.SpoolDir = firstSet(getenv("PERFGATE_SPOOL"), s.SpoolDir)
}

// readStatistics reads filter, threshold, alpha and inconclusive.
func (s *Settings) readStatistics(in, _ func(string) string, _ Defaults) error {
	s.Explicit = map[string]bool{}
	for _, set := range compare.VerdictSettings {
		if set.Input != "" {
			s.Explicit[set.Name] = in(set.Input) != ""
		}
	}
	var err error
	if f := in("filter"); f != "" {
		if s.Filter, err = regexp.Compile(f); err != nil {
			return inputErr("filter", "%v", err)
		}
	}
	if v := in("threshold"); v != "" {
		if s.Compare.Threshold, err = compare.ParseThreshold(v); err != nil {
			return inputErr("threshold", "%v", err)
		}
	}
	if v := in("alpha"); v != "" {
		a, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(a) || !(a > 0 && a < 1) {
			return inputErr("alpha", "%q is not a number in range (0 to 1)", v)
		}
		s.Compare.Alpha = a
	}
	if v := in("inconclusive"); v != "" {
		if !slices.Contains(compare.InconclusivePolicies, v) {
			return inputErr("inconclusive", "%q is not %s", v, strings.Join(compare.InconclusivePolicies, ", "))
		}
		s.Compare.Inconclusive = compare.InconclusivePolicy(v)
	}
	return nil
}

// readPolicies reads the true/false inputs, comment and pre-run-checks.
func (s *Settings) readPolicies(in, _ func(string) string, d Defaults) error {
	s.Inputs.BaselineBranch = in("baseline-branch")
	bools := []struct {
		name string
		def  bool
		dst  *bool
	}{{"fail-on-regression", true, &s.Inputs.FailOnRegression}, {"record", false, &s.Inputs.Record}, {"allow-forks", false, &s.Inputs.AllowForks}, {"confirm", true, &s.Confirm}}
	for _, b := range bools {
		switch v := strings.ToLower(in(b.name)); v {
		case "":
			*b.dst = b.def
		case "true", "false":
			*b.dst = v == "true"
		default:
			return inputErr(b.name, "%q is not true or false", v)
		}
	}
	var err error
	if s.Comment, err = ParseCommentPolicy(in("comment")); err != nil {
		return &model.InputError{Err: err}
	}
	s.PreRun = in("pre-run-checks")
	if s.PreRun == "" && len(d.PreRunPolicies) > 0 {
		s.PreRun = d.PreRunPolicies[0]
	}
	if !slices.Contains(d.PreRunPolicies, s.PreRun) {
		return inputErr("pre-run-checks", "%q is not %s", s.PreRun, strings.Join(d.PreRunPolicies, ", "))
	}
	return nil
}

// readBaseline reads baseline (or its deprecated name, mode) and rounds.
func (s *Settings) readBaseline(in, _ func(string) string, d Defaults) error {
	name, v := "baseline", in("baseline")
	if old := in("mode"); old != "" {
		if v != "" && v != old {
			return inputErr("mode", "%q, but baseline says %q: mode is the deprecated name of baseline; give baseline only", old, v)
		}
		name, v = "mode", old
		s.Warnings = append(s.Warnings, "the mode input is deprecated: name it baseline (baseline: "+old+")")
	}
	switch v {
	case "", BaselineHistory:
		s.Baseline = BaselineHistory
	case BaselineInterleaved:
		s.Baseline = BaselineInterleaved
	default:
		return inputErr(name, "%q is not history or interleaved", v)
	}
	s.Rounds = d.Rounds
	if v := in("rounds"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > d.MaxRounds {
			return inputErr("rounds", "%q is not an integer from 1 to %d", v, d.MaxRounds)
		}
		s.Rounds = n
	}
	if s.Baseline == BaselineInterleaved && len(s.ResultFiles) > 0 {
		return inputErr(name, "interleaved runs the suites of both sides itself; leave results-file empty")
	}
	s.Inputs.Interleaved = s.Baseline == BaselineInterleaved
	return nil
}

// readShards reads shards (how many jobs the matrix has; default 1, not
// sharded) and shard (this job's index, 0 … shards-1): in a matrix,
// ${{ strategy.job-total }} and ${{ strategy.job-index }}.
func (s *Settings) readShards(in, getenv func(string) string, _ Defaults) error {
	n, i := in("shards"), in("shard")
	s.Shard = Shard{Count: 1}
	if n == "" {
		if i != "" && i != "0" {
			return inputErr("shard", "%q given without shards (the number of shards, e.g. ${{ strategy.job-total }})", i)
		}
		return nil
	}
	count, err := strconv.Atoi(n)
	if err != nil || count < 1 || count > MaxShards {
		return inputErr("shards", "%q is not an integer from 1 to %d", n, MaxShards)
	}
	idx, err := strconv.Atoi(firstSet(i, "-"))
	if err != nil || idx < 0 || idx >= count {
		return inputErr("shard", "%q is not an integer from 0 to %d (this job's index, e.g. ${{ strategy.job-index }})", i, count-1)
	}
	s.Shard = Shard{Index: idx, Count: count}
	// The shards' runs share a run group, so a sharded job's history is one
	// job to the baseline (model.BaselineQuery counts jobs, not runs).
	s.ShardGroup = fmt.Sprintf("gha-%s-%s-%s", getenv("GITHUB_RUN_ID"), firstSet(getenv("GITHUB_RUN_ATTEMPT"), "1"), getenv("GITHUB_JOB"))
	return nil
}

// readTimeouts reads github-timeout and database-timeout, which default to
// PERFGATE_GITHUB_TIMEOUT and PERFGATE_DB_TIMEOUT, then to d's deadlines.
func (s *Settings) readTimeouts(in, getenv func(string) string, d Defaults) error {
	for _, t := range []struct {
		name, env string
		def       time.Duration
		dst       *time.Duration
	}{
		{"github-timeout", "PERFGATE_GITHUB_TIMEOUT", d.GitHubTimeout, &s.GitHubTimeout},
		{"database-timeout", "PERFGATE_DB_TIMEOUT", d.DBTimeout, &s.DBTimeout},
	} {
		v := firstSet(in(t.name), getenv(t.env))
		if v == "" {
			*t.dst = t.def
			continue
		}
		dur, err := units.ParseTimeout(v)
		if err != nil {
			return inputErr(t.name, "%v", err)
		}
		*t.dst = dur
	}
	return nil
}

// readNotify reads notify-changes and dashboard-url.
func (s *Settings) readNotify(in, _ func(string) string, _ Defaults) error {
	var err error
	if s.Notify, err = ParseNotifyPolicy(in("notify-changes")); err != nil {
		return &model.InputError{Err: err}
	}
	s.DashboardURL = in("dashboard-url")
	if s.DashboardURL == "" {
		return nil
	}
	u, err := url.Parse(s.DashboardURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" ||
		strings.ContainsAny(s.DashboardURL, " ()<>\"'`[]\\|") {
		return inputErr("dashboard-url", "%q is not an http(s) URL of the published dashboard (perfgate site), without a query", s.DashboardURL)
	}
	return nil
}

// inputErr is a bad input, named.
func inputErr(name, format string, args ...any) error {
	return &model.InputError{Msg: name + ": " + fmt.Sprintf(format, args...)}
}

// splitList splits a comma-separated input, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// firstSet returns v, or def when v is empty.
func firstSet(v, def string) string {
	if v != "" {
		return v
	}
	return def
}

// UseConfig takes the baseline branch of cfg (nil: none) when the
// baseline-branch input leaves it open: the plan needs it. The rest of the
// config's settings apply in Run (check.ApplyConfig). The config input
// names the file (config.LoadOptional reads it; with results-file and no
// config input a missing .perfgate.yml is no error: the action then
// judges with its inputs alone).
func (s *Settings) UseConfig(cfg *config.Config) {
	if cfg != nil && s.Inputs.BaselineBranch == "" {
		s.Inputs.BaselineBranch = cfg.Baseline.Branch
	}
}

package compare

import "strconv"

// A Setting is one setting, declared once: its name (the flag; for a
// judgement's, the flag of compare, check and ab, and the key of the
// settings a user chose explicitly), the PERFGATE_* variable it defaults
// from, its key in .perfgate.yml and its action input ("": none), and the
// range of a number. The judgement's are below; perfgate run's are
// runner.RunSettings. Flags, variables, the config file, the action's inputs and
// their checks take these from here; TestSettingsTable in cmd/perfgate
// compares them with the flags, action.yml and the docs.
type Setting struct {
	Name   string
	Env    string
	Config string // "thresholds.alpha": the section and the key; a run setting's: "builtin.size", the key of a builtin suite
	Input  string
	// Min and Max bound a number; Max 0: not a bounded number.
	Min, Max float64
	// Old holds the names a renamed setting had: each is still read, with
	// a deprecation warning, where the new one is not given.
	Old Names
}

// Names are the old spellings of a renamed setting: its flag, variable
// and .perfgate.yml key ("": that one was not renamed).
type Names struct{ Name, Env, Config string }

// The settings of the verdict and of the baseline query.
var (
	VerdictSettings = []Setting{
		{Name: "threshold", Env: "PERFGATE_THRESHOLD", Config: "thresholds.default", Input: "threshold"},
		{Name: "alpha", Env: "PERFGATE_ALPHA", Config: "thresholds.alpha", Input: "alpha"},
		{Name: "correction", Env: "PERFGATE_CORRECTION", Config: "thresholds.correction"},
		{Name: "min-samples", Env: "PERFGATE_MIN_SAMPLES", Config: "thresholds.min_samples", Min: 2, Max: 1000000},
		{Name: "history", Env: "PERFGATE_HISTORY", Config: "baseline.history", Min: 1, Max: 1000},
		{Name: "run-spread", Env: "PERFGATE_RUN_SPREAD", Min: 0, Max: 100},
		{Name: "inconclusive", Env: "PERFGATE_INCONCLUSIVE", Config: "thresholds.inconclusive", Input: "inconclusive"},
	}
	BaselineSettings = []Setting{
		{Name: "baseline-branch", Env: "PERFGATE_BASELINE_BRANCH", Config: "baseline.branch", Input: "baseline-branch"},
		{Name: "baseline-jobs", Env: "PERFGATE_BASELINE_JOBS", Config: "baseline.jobs", Min: 1, Max: 1000,
			Old: Names{Name: "baseline-runs", Env: "PERFGATE_BASELINE_RUNS", Config: "baseline.runs"}},
		{Name: "baseline-testbed", Env: "PERFGATE_BASELINE_TESTBED", Config: "baseline.testbed"},
	}
)

// Lookup returns the setting named name, of either list; it panics on a
// name neither declares, a programming error.
func Lookup(name string) Setting {
	for _, list := range [][]Setting{VerdictSettings, BaselineSettings} {
		for _, s := range list {
			if s.Name == name {
				return s
			}
		}
	}
	panic("compare: no setting " + strconv.Quote(name))
}

// Envs maps each setting of list, by name, to its variable.
func Envs(list []Setting) map[string]string {
	m := map[string]string{}
	for _, s := range list {
		m[s.Name] = s.Env
	}
	return m
}

// RenamedEnvs maps the variable of each renamed setting (of either list)
// to its old variable.
func RenamedEnvs() map[string]string {
	m := map[string]string{}
	for _, list := range [][]Setting{VerdictSettings, BaselineSettings} {
		for _, s := range list {
			if s.Old.Env != "" {
				m[s.Env] = s.Old.Env
			}
		}
	}
	return m
}

// IntRange is the range of an integer setting.
func (s Setting) IntRange() (lo, hi int) { return int(s.Min), int(s.Max) }

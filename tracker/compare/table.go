package compare

import "strconv"

// A Setting is one setting of a judgement, declared once: its name (the
// flag of compare, check and ab, and the key of the settings a user chose
// explicitly), the PERFGATE_* variable it defaults from, its key in
// .perfgate.yml and its action input ("": none), and the range of a
// number. Flags, variables, the config file, the action's inputs and
// their checks take these from here; TestSettingsTable in cmd/perfgate
// compares them with the flags, action.yml and the docs.
type Setting struct {
	Name   string
	Env    string
	Config string // "thresholds.alpha": the section and the key
	Input  string
	// Min and Max bound a number; Max 0: not a bounded number.
	Min, Max float64
}

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
		{Name: "baseline-runs", Env: "PERFGATE_BASELINE_RUNS", Config: "baseline.runs", Min: 1, Max: 1000},
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

// IntRange is the range of an integer setting.
func (s Setting) IntRange() (lo, hi int) { return int(s.Min), int(s.Max) }

package runner

import (
	"strconv"

	"github.com/perfgate/perfgate/tracker/compare"
)

// RunSettings are the settings of perfgate run that more than its flag
// gives (compare.Setting: the flag's name, its PERFGATE_* variable, the
// key of a builtin suite in .perfgate.yml that sets it for that suite,
// its action input, its range), declared once: the flags, the action's
// inputs and their checks take them from here, and TestRunSettingsTable
// and TestBuiltinSuiteKeys in cmd/perfgate compare them with the flags,
// the keys a builtin suite takes, action.yml and the docs. The values a
// size or a dtype may take are kernels.Sizes and kernels.DTypes, the
// measuring budgets measure's (DefaultMaxTime, FastMaxTime …).
var RunSettings = []compare.Setting{
	{Name: "suite", Env: "PERFGATE_SUITE", Config: "builtin.suite"},
	{Name: "size", Env: "PERFGATE_SIZE", Config: "builtin.size"},
	{Name: "dtype", Config: "builtin.dtypes"},
	{Name: "filter", Config: "builtin.filter"},
	{Name: "fast", Config: "builtin.fast"},
	{Name: "max-time", Config: "builtin.max_time"},
	{Name: "pace", Env: "PERFGATE_PACE"},
	{Name: "testbed", Env: "PERFGATE_TESTBED"},
	{Name: "rounds", Input: "rounds", Min: 1, Max: MaxRounds},
}

// RunSetting returns the setting of RunSettings named name; it panics on
// a name the table does not declare, a programming error.
func RunSetting(name string) compare.Setting {
	for _, s := range RunSettings {
		if s.Name == name {
			return s
		}
	}
	panic("runner: no setting " + strconv.Quote(name))
}

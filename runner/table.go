package runner

import (
	"strconv"

	"github.com/perfgate/perfgate/tracker/compare"
)

// RunSettings are the settings of perfgate run that more than its flag
// gives (compare.Setting: the flag's name, its PERFGATE_* variable, its
// action input, its range), declared once: the flags, the action's
// inputs and their checks take them from here, and TestSettingsTable in
// cmd/perfgate compares them with the flags, action.yml and the docs.
var RunSettings = []compare.Setting{
	{Name: "suite", Env: "PERFGATE_SUITE"},
	{Name: "size", Env: "PERFGATE_SIZE"},
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

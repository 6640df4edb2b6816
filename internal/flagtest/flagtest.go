// Package flagtest makes a library's tests read its messages as users do:
// importing it (for its side effect, from a _test.go file) sets
// model.SpellFlag to spell a setting as cmd/perfgate spells its flags, so
// that a test can assert "--rounds: …" where the library only names the
// setting (model.Flag). cmd/perfgate's TestSpellFlagAsCmd holds Spell to
// cli.SpellFlag.
package flagtest

import "github.com/perfgate/perfgate/tracker/model"

// Spell spells the flag of setting name as cmd/perfgate does.
func Spell(name string) string { return "--" + name }

func init() { model.SpellFlag = Spell }

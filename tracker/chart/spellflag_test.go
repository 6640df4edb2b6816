package chart

import "github.com/perfgate/perfgate/tracker/model"

// The messages the tests read spell flags as cmd/perfgate does
// (cli.SpellFlag); the library itself only names them (model.Flag).
func init() { model.SpellFlag = func(name string) string { return "--" + name } }

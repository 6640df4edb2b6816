package model

import "fmt"

// A Flag is a setting of a perfgate command named in a message a user
// reads, by its name ("rounds"). Libraries name settings and never spell
// them: the command spells a Flag as its users type it, through
// SpellFlag, so that flag spellings live in cmd/ only.
type Flag string

// SpellFlag spells a Flag in messages. cmd/perfgate sets it once, before
// it runs a command; unset, a Flag is its name.
var SpellFlag = func(name string) string { return name }

// String is the flag as the command spells it.
func (f Flag) String() string { return SpellFlag(string(f)) }

// SettingError returns the input error of a bad setting: its message,
// formatted from format and args, follows the setting's flag, and
// errors.As finds the setting's name in InputError.Setting.
func SettingError(setting, format string, args ...any) *InputError {
	return &InputError{Setting: Flag(setting), Msg: fmt.Sprintf(format, args...)}
}

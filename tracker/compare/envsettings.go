package compare

import (
	"fmt"
	"strconv"
	"strings"
)

// SettingEnv names the variable each verdict setting (by its flag name)
// defaults from: PERFGATE_THRESHOLD for threshold, and so on
// (VerdictSettings).
var SettingEnv = Envs(VerdictSettings)

// EnvSettings are DefaultSettings with the value getenv gives each
// setting's variable (SettingEnv) in its place. A number that does not
// parse (or is not an integer where the setting wants one) leaves the
// default and is returned in bad, by setting; Options checks the rest.
func EnvSettings(getenv func(string) string) (s Settings, bad map[string]*SettingError) {
	s, bad = DefaultSettings(), map[string]*SettingError{}
	if v := getenv(SettingEnv["threshold"]); v != "" {
		s.Threshold = v
	}
	if v := getenv(SettingEnv["correction"]); v != "" {
		s.Correction = v
	}
	if v := strings.TrimSpace(getenv(SettingEnv["inconclusive"])); v != "" {
		s.Inconclusive = v
	}
	num := func(name string, integer bool, dst func(float64)) {
		v := strings.TrimSpace(getenv(SettingEnv[name]))
		if v == "" {
			return
		}
		if integer {
			n, err := strconv.Atoi(v)
			if err != nil {
				bad[name] = &SettingError{name, fmt.Sprintf("%q is not an integer", v)}
				return
			}
			dst(float64(n))
			return
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			bad[name] = &SettingError{name, fmt.Sprintf("%q is not a number", v)}
			return
		}
		dst(f)
	}
	num("alpha", false, func(v float64) { s.Alpha = v })
	num("min-samples", true, func(v float64) { s.MinSamples = int(v) })
	num("history", true, func(v float64) { s.History = int(v) })
	num("run-spread", false, func(v float64) { s.RunSpread = v })
	return s, bad
}

package compare

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Settings are the verdict options as people write them (the flags of
// compare, check and ab and their PERFGATE_* defaults): the threshold as
// text in percent, the run-to-run spread in percent. Options checks them.
type Settings struct {
	Threshold  string // "10" and "10%" are ten percent (ParseThreshold)
	Alpha      float64
	Correction string
	MinSamples int
	History    int     // baseline jobs read to estimate the run-to-run spread
	RunSpread  float64 // percent
	// Inconclusive is the inconclusive policy: pass, neutral or fail.
	Inconclusive string
}

// DefaultSettings are DefaultOptions, written as Settings.
func DefaultSettings() Settings {
	o := DefaultOptions()
	return Settings{Threshold: strconv.Itoa(DefaultThresholdPercent) + "%", Alpha: o.Alpha, Correction: o.Correction, MinSamples: o.MinSamples,
		History: o.HistoryJobs, RunSpread: 100 * o.RunSpreadPrior, Inconclusive: string(o.Inconclusive)}
}

// A SettingError names the setting that is wrong (threshold, alpha,
// correction, min-samples, history, run-spread: the flags' names).
type SettingError struct {
	Setting, Msg string
}

func (e *SettingError) Error() string { return e.Setting + ": " + e.Msg }

// Options checks s and returns the options, or a *SettingError for the
// first bad setting.
func (s Settings) Options() (Options, error) {
	minSamples, history, runSpread := Lookup("min-samples"), Lookup("history"), Lookup("run-spread")
	threshold, err := ParseThreshold(s.Threshold)
	if err != nil {
		return Options{}, &SettingError{"threshold", err.Error()}
	}
	switch {
	case !(s.Alpha > 0 && s.Alpha < 1):
		return Options{}, &SettingError{"alpha", fmt.Sprintf("must be in (0, 1), got %v", s.Alpha)}
	case s.MinSamples < int(minSamples.Min) || s.MinSamples > int(minSamples.Max):
		return Options{}, &SettingError{"min-samples", fmt.Sprintf("must be from %d to %d, got %d", int(minSamples.Min), int(minSamples.Max), s.MinSamples)}
	case s.History < int(history.Min) || s.History > int(history.Max):
		return Options{}, &SettingError{"history", fmt.Sprintf("must be between %d and %d jobs, got %d", int(history.Min), int(history.Max), s.History)}
	case !(s.RunSpread >= runSpread.Min) || s.RunSpread > runSpread.Max:
		return Options{}, &SettingError{"run-spread", fmt.Sprintf("must be a percentage in [%v, %v], got %v", runSpread.Min, runSpread.Max, s.RunSpread)}
	case !slices.Contains(InconclusivePolicies, s.Inconclusive):
		return Options{}, &SettingError{"inconclusive", fmt.Sprintf("must be one of %s, got %q", strings.Join(InconclusivePolicies, ", "), s.Inconclusive)}
	case !slices.Contains(Corrections, s.Correction):
		return Options{}, &SettingError{"correction", fmt.Sprintf("must be one of %s, got %q", strings.Join(Corrections, ", "), s.Correction)}
	}
	o := DefaultOptions()
	o.Threshold, o.Alpha, o.Correction, o.MinSamples = threshold, s.Alpha, s.Correction, s.MinSamples
	o.HistoryJobs, o.RunSpreadPrior, o.Inconclusive = s.History, s.RunSpread/100, InconclusivePolicy(s.Inconclusive)
	return o, nil
}

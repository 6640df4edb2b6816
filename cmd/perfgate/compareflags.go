package main

import (
	"errors"
	"flag"
	"strings"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/report"
)

// compareFlags are the verdict flags shared by compare, check and ab
// (compare.Settings), and --format.
type compareFlags struct {
	s      compare.Settings
	format string
	fs     *flag.FlagSet
	// envSet: the flag's default came from its PERFGATE_* variable.
	envSet  map[string]bool
	envErrs map[string]error // flag name -> its PERFGATE_* default did not parse
	// defHistory is --history's default, for registerHistory.
	defHistory int
}

// register adds the verdict flags and --format to fs, with defaults from
// their PERFGATE_* variables (compare.EnvSettings).
func (f *compareFlags) register(fs *flag.FlagSet, e *cli.Env) {
	def, bad := compare.EnvSettings(e.Getenv)
	f.fs, f.envSet, f.envErrs = fs, map[string]bool{}, map[string]error{}
	for name, key := range compare.SettingEnv {
		f.envSet[name] = e.Getenv(key) != ""
	}
	for name, se := range bad {
		f.envErrs[name] = cli.UsageErrorf("%s (default of --%s): %s", compare.SettingEnv[name], name, se.Msg)
	}
	fs.StringVar(&f.s.Threshold, "threshold", def.Threshold,
		envUsage("the smallest change that matters, in `percent`: 10 and 10% are ten percent; below 1 write the sign (0.5%)", "threshold"))
	fs.Float64Var(&f.s.Alpha, "alpha", def.Alpha, envUsage("significance level of the adjusted p-values, in (0, 1); the CI level is 1 − alpha", "alpha"))
	fs.StringVar(&f.s.Correction, "correction", def.Correction,
		envUsage("multiple-testing correction: "+strings.Join(compare.Corrections, ", "), "correction"))
	fs.IntVar(&f.s.MinSamples, "min-samples", def.MinSamples, envUsage("fewest samples per side to judge a benchmark", "min-samples"))
	f.s.History, f.defHistory = compare.DefaultSettings().History, def.History // --history is check's (registerHistory)
	fs.Float64Var(&f.s.RunSpread, "run-spread", def.RunSpread,
		envUsage("the run-to-run spread, in `percent`, assumed where no replicated runs measure it (one job a side)", "run-spread"))
	fs.StringVar(&f.s.Inconclusive, "inconclusive", def.Inconclusive, envUsage("what inconclusive verdicts (warn, noisy, insufficient, not yet gateable, error) do when nothing regressed: neutral (exit 0, reported inconclusive), fail (exit 1) or pass", "inconclusive"))
	fs.StringVar(&f.format, "format", report.FormatText, "output format: "+strings.Join(report.Formats, ", "))
}

// envUsage is usage naming the variable of the judging setting named, as
// compare's table declares it (compare.Lookup).
func envUsage(usage, setting string) string {
	return usage + " (env " + compare.Lookup(setting).Env + ")"
}

// registerHistory adds --history, which only check reads: compare and ab
// are given both sides' runs and read no history.
func (f *compareFlags) registerHistory(fs *flag.FlagSet) {
	fs.IntVar(&f.s.History, "history", f.defHistory,
		envUsage("how many of the latest baseline jobs to read to estimate each benchmark's run-to-run spread; the newest --baseline-jobs of them are the baseline", "history"))
}

// options checks the flags (compare.Settings.Options) and --format. Errors
// are usage errors (exit 2) naming the flag, or the variable its default
// came from.
func (f *compareFlags) options() (compare.Options, error) {
	set := cli.FlagsGiven(f.fs)
	for name, err := range f.envErrs {
		if !set[name] && f.fs.Lookup(name) != nil { // a variable of a flag this command has not is not read
			return compare.Options{}, err
		}
	}
	o, err := f.s.Options()
	var se *compare.SettingError
	switch {
	case errors.As(err, &se) && !set[se.Setting] && f.envSet[se.Setting]:
		return o, cli.UsageErrorf("%s (default of --%s): %s", compare.SettingEnv[se.Setting], se.Setting, se.Msg)
	case errors.As(err, &se):
		return o, cli.UsageErrorf("--%s: %s", se.Setting, se.Msg)
	}
	if err := cli.CheckChoice("--format", f.format, report.Formats); err != nil {
		return compare.Options{}, err
	}
	return o, nil
}

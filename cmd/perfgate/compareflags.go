package main

import (
	"errors"
	"flag"
	"strconv"
	"strings"

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
}

// compareEnv are the variables the verdict flags default from.
var compareEnv = map[string]string{"threshold": "PERFGATE_THRESHOLD", "alpha": "PERFGATE_ALPHA", "correction": "PERFGATE_CORRECTION",
	"min-samples": "PERFGATE_MIN_SAMPLES", "history": "PERFGATE_HISTORY", "run-spread": "PERFGATE_RUN_SPREAD"}

// register adds the verdict flags and --format to fs, with defaults from
// their PERFGATE_* variables.
func (f *compareFlags) register(fs *flag.FlagSet, e *env) {
	def := compare.DefaultSettings()
	f.fs, f.envSet, f.envErrs = fs, map[string]bool{}, map[string]error{}
	for name, key := range compareEnv {
		f.envSet[name] = e.Getenv(key) != ""
	}
	fs.StringVar(&f.s.Threshold, "threshold", envDefault(e, "PERFGATE_THRESHOLD", def.Threshold),
		"the smallest change that matters, in `percent`: 10 and 10% are ten percent; below 1 write the sign (0.5%) (env PERFGATE_THRESHOLD)")
	fs.Float64Var(&f.s.Alpha, "alpha", f.envFloat(e, "alpha", def.Alpha), "significance level of the adjusted p-values, in (0, 1); the CI level is 1 − alpha (env PERFGATE_ALPHA)")
	fs.StringVar(&f.s.Correction, "correction", envDefault(e, "PERFGATE_CORRECTION", def.Correction),
		"multiple-testing correction: "+strings.Join(compare.Corrections, ", ")+" (env PERFGATE_CORRECTION)")
	fs.IntVar(&f.s.MinSamples, "min-samples", int(f.envFloat(e, "min-samples", float64(def.MinSamples))), "fewest samples per side to judge a benchmark (env PERFGATE_MIN_SAMPLES)")
	fs.IntVar(&f.s.History, "history", int(f.envFloat(e, "history", float64(def.History))),
		"check and action: how many of the latest baseline jobs to read to estimate each benchmark's run-to-run spread; the newest --baseline-runs of them are the baseline (env PERFGATE_HISTORY)")
	fs.Float64Var(&f.s.RunSpread, "run-spread", f.envFloat(e, "run-spread", def.RunSpread),
		"the run-to-run spread, in `percent`, assumed where no replicated runs measure it (one job a side) (env PERFGATE_RUN_SPREAD)")
	fs.StringVar(&f.format, "format", report.FormatText, "output format: "+strings.Join(report.Formats, ", "))
}

// envFloat reads a numeric default from the flag's variable, remembering
// one that does not parse (or is not an integer where the flag wants one)
// for options to report unless the flag is given.
func (f *compareFlags) envFloat(e *env, name string, def float64) float64 {
	key := compareEnv[name]
	s := strings.TrimSpace(e.Getenv(key))
	if s == "" {
		return def
	}
	if name == "min-samples" || name == "history" {
		n, err := strconv.Atoi(s)
		if err != nil {
			f.envErrs[name] = usageError("%s (default of --%s): %q is not an integer", key, name, s)
			return def
		}
		return float64(n)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		f.envErrs[name] = usageError("%s (default of --%s): %q is not a number", key, name, s)
		return def
	}
	return v
}

// options checks the flags (compare.Settings.Options) and --format. Errors
// are usage errors (exit 2) naming the flag, or the variable its default
// came from.
func (f *compareFlags) options() (compare.Options, error) {
	set := flagsGiven(f.fs)
	for name, err := range f.envErrs {
		if !set[name] {
			return compare.Options{}, err
		}
	}
	o, err := f.s.Options()
	var se *compare.SettingError
	switch {
	case errors.As(err, &se) && !set[se.Setting] && f.envSet[se.Setting]:
		return o, usageError("%s (default of --%s): %s", compareEnv[se.Setting], se.Setting, se.Msg)
	case errors.As(err, &se):
		return o, usageError("--%s: %s", se.Setting, se.Msg)
	}
	if err := checkChoice("--format", f.format, report.Formats); err != nil {
		return compare.Options{}, err
	}
	return o, nil
}

func checkChoice(flagName, v string, allowed []string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return usageError("%s: must be one of %s, got %q", flagName, strings.Join(allowed, ", "), v)
}

// resultFiles is a repeatable flag collecting results file names.
type resultFiles []string

func (l *resultFiles) String() string { return strings.Join(*l, ",") }

func (l *resultFiles) Set(v string) error {
	if v == "" {
		return usageError("empty file name")
	}
	*l = append(*l, v)
	return nil
}

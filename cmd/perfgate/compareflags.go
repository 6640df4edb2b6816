package main

import (
	"flag"
	"io"
	"strconv"
	"strings"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/report"
)

// compareFlags are the verdict flags shared by compare, check and action.
// The threshold is a percentage on the command line, read by
// compare.ParseThreshold ("10" and "10%" are ten percent), and a fraction
// in compare.Options.
type compareFlags struct {
	threshold string // as given; options parses it
	// thresholdEnv: the threshold's default came from PERFGATE_THRESHOLD.
	thresholdEnv bool
	alpha        float64
	correction   string
	minSamples   int
	history      int
	runSpread    float64 // percent
	format       string
	fs           *flag.FlagSet
	envErrs      map[string]error // flag name -> its PERFGATE_* default did not parse
}

// register adds --threshold, --alpha, --correction, --min-samples and
// --format to fs, with defaults from PERFGATE_THRESHOLD, PERFGATE_ALPHA,
// PERFGATE_CORRECTION and PERFGATE_MIN_SAMPLES.
func (f *compareFlags) register(fs *flag.FlagSet, e *env) {
	def := compare.DefaultOptions()
	f.fs, f.envErrs = fs, map[string]error{}
	f.thresholdEnv = e.Getenv("PERFGATE_THRESHOLD") != ""
	alpha := f.envFloat(e, "alpha", "PERFGATE_ALPHA", def.Alpha)
	minSamples := f.envInt(e, "min-samples", "PERFGATE_MIN_SAMPLES", def.MinSamples)
	fs.StringVar(&f.threshold, "threshold", envDefault(e, "PERFGATE_THRESHOLD", "10%"),
		"the smallest change that matters, in `percent`: 10 and 10% are ten percent; below 1 write the sign (0.5%) (env PERFGATE_THRESHOLD)")
	fs.Float64Var(&f.alpha, "alpha", alpha, "significance level of the adjusted p-values, in (0, 1); the CI level is 1 − alpha (env PERFGATE_ALPHA)")
	fs.StringVar(&f.correction, "correction", envDefault(e, "PERFGATE_CORRECTION", def.Correction),
		"multiple-testing correction: "+strings.Join(compare.Corrections, ", ")+" (env PERFGATE_CORRECTION)")
	fs.IntVar(&f.minSamples, "min-samples", minSamples, "fewest samples per side to judge a benchmark (env PERFGATE_MIN_SAMPLES)")
	fs.IntVar(&f.history, "history", f.envInt(e, "history", "PERFGATE_HISTORY", def.HistoryJobs),
		"check and action: how many of the latest baseline jobs to read to estimate each benchmark's run-to-run spread; the newest --baseline-runs of them are the baseline (env PERFGATE_HISTORY)")
	fs.Float64Var(&f.runSpread, "run-spread", f.envFloat(e, "run-spread", "PERFGATE_RUN_SPREAD", 100*def.RunSpreadPrior),
		"the run-to-run spread, in `percent`, assumed where no replicated runs measure it (one job a side) (env PERFGATE_RUN_SPREAD)")
	fs.StringVar(&f.format, "format", report.FormatText, "output format: "+strings.Join(report.Formats, ", "))
}

// envFloat reads a numeric default from the environment, remembering one
// that does not parse for options to report unless the flag is given.
func (f *compareFlags) envFloat(e *env, name, key string, def float64) float64 {
	s := e.Getenv(key)
	if s == "" {
		return def
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		f.envErrs[name] = usageError("%s (default of --%s): %q is not a number", key, name, s)
		return def
	}
	return v
}

// envInt is envFloat for integers.
func (f *compareFlags) envInt(e *env, name, key string, def int) int {
	s := e.Getenv(key)
	if s == "" {
		return def
	}
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		f.envErrs[name] = usageError("%s (default of --%s): %q is not an integer", key, name, s)
		return def
	}
	return v
}

// options validates the flags and returns the compare options. Errors are
// usage errors (exit 2) naming the flag or environment variable.
func (f *compareFlags) options() (compare.Options, error) {
	set := flagsGiven(f.fs)
	for _, name := range []string{"threshold", "alpha", "min-samples", "history", "run-spread"} {
		if err := f.envErrs[name]; err != nil && !set[name] {
			return compare.Options{}, err
		}
	}
	threshold, err := compare.ParseThreshold(f.threshold)
	if err != nil {
		if !set["threshold"] && f.thresholdEnv {
			return compare.Options{}, usageError("PERFGATE_THRESHOLD (default of --threshold): %v", err)
		}
		return compare.Options{}, usageError("--threshold: %v", err)
	}
	switch {
	case !(f.alpha > 0 && f.alpha < 1):
		return compare.Options{}, usageError("--alpha: must be in (0, 1), got %v", f.alpha)
	case f.minSamples < 2:
		return compare.Options{}, usageError("--min-samples: must be at least 2, got %d", f.minSamples)
	case f.history < 1 || f.history > 1000:
		return compare.Options{}, usageError("--history: must be between 1 and 1000 jobs, got %d", f.history)
	case !(f.runSpread >= 0) || f.runSpread > 100:
		return compare.Options{}, usageError("--run-spread: must be a percentage in [0, 100], got %v", f.runSpread)
	}
	if err := checkChoice("--correction", f.correction, compare.Corrections); err != nil {
		return compare.Options{}, err
	}
	if err := checkChoice("--format", f.format, report.Formats); err != nil {
		return compare.Options{}, err
	}
	o := compare.DefaultOptions()
	o.Threshold, o.Alpha, o.Correction, o.MinSamples = threshold, f.alpha, f.correction, f.minSamples
	o.HistoryJobs, o.RunSpreadPrior = f.history, f.runSpread/100
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

// renderComparison writes the comparison in format (report.Render).
func renderComparison(w io.Writer, c *compare.Comparison, format string) error {
	return report.Render(w, c, nil, format)
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

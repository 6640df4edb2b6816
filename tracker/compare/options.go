package compare

import (
	"fmt"
	"math"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
)

// The multiple-testing corrections Options.Correction accepts.
const (
	CorrectionBH   = "bh"   // Benjamini-Hochberg: controls the false discovery rate
	CorrectionHolm = "holm" // Holm step-down: controls the family-wise error rate
	CorrectionNone = "none" // each benchmark tested at Alpha on its own
)

// Corrections lists the valid values of Options.Correction.
var Corrections = []string{CorrectionBH, CorrectionHolm, CorrectionNone}

// Options controls a comparison.
type Options struct {
	Threshold   float64    // the smallest change that matters, as a fraction: 0.10 = 10%
	Alpha       float64    // the significance level, such as 0.01; the CI level is 1 − Alpha
	Correction  string     // CorrectionBH, CorrectionHolm or CorrectionNone
	MinSamples  int        // fewer raw samples than this on either side: Insufficient
	Overrides   []Override // per-benchmark threshold/better overrides, first match wins
	Ignore      []string   // globs over "suite/name" (see Match): benchmarks left out entirely
	Interleaved bool       // the runs came from an interleaved A/B on one GPU (reports say so)
	// BaselineJobs is K: the newest K jobs of the baseline runs (given
	// newest first) are the baseline; older jobs only inform the
	// run-to-run spread. 0: every baseline run is baseline.
	BaselineJobs int
	// HistoryJobs is how many of the latest baseline jobs a check against a
	// history store reads: the newest BaselineJobs of them are the
	// baseline, all of them estimate the run-to-run spread. Compare itself
	// takes whatever baseline runs it is given.
	HistoryJobs int
	// RunSpreadPrior is the run-to-run spread (standard deviation of the
	// log median of one run, ≈ a fraction) assumed where the runs cannot
	// estimate it: one job a side with no rounds.
	RunSpreadPrior float64
	// SortInPlace lets Compare sort the samples of a side's only run in
	// place rather than pool a sorted copy: the same results, without a
	// second copy of every sample (8 bytes a sample a side), for callers
	// that need neither the runs' sample order afterwards nor the same
	// Results on both sides (perfgate compare; not check, which records
	// the candidate).
	SortInPlace bool
	// Priors, when set, are the priors to moderate the spreads with
	// instead of fitting them to the comparison's benchmarks: a
	// confirmation re-judges a few benchmarks with the first check's.
	Priors *Priors
	// Inconclusive is what inconclusive verdicts do to the gate (Gate);
	// "" is DefaultInconclusive.
	Inconclusive InconclusivePolicy
}

// DefaultThresholdPercent is the default Threshold, in percent as people
// write it (Settings.Threshold): the one place the 10% is written.
const DefaultThresholdPercent = 10

// DefaultHistory is the default HistoryJobs: 20 jobs give the spread
// estimate 19 degrees of freedom, where Student's t is within 12% of the
// normal at the 1% level; fewer make verdicts cautious, as they should.
const DefaultHistory = 20

// DefaultRunSpread is the default RunSpreadPrior: 3%, between the median
// (0.9%) and the 90th percentile (5%) of the run-to-run spread of
// perfgate's built-in suites measured on an H100 (docs/verdicts.md). It
// guards the p-values of one-job-a-side comparisons against the usual
// shifts between processes; only measured spreads widen intervals.
const DefaultRunSpread = 0.03

// An Override changes the threshold or the direction of the benchmarks
// whose "suite/name" matches Glob (see Match).
type Override struct {
	Glob      string
	Threshold float64      // a fraction; negative: keep Options.Threshold
	Better    model.Better // "": keep the benchmark's own direction
	// Exact makes Glob a literal "suite/name" that matches only that key
	// (not the keys below it, and with no metacharacters).
	Exact bool
}

// matches reports whether the override applies to key.
func (ov Override) matches(key string) bool {
	if ov.Exact {
		return ov.Glob == key
	}
	return Match(ov.Glob, key)
}

// DefaultOptions returns the defaults of the perfgate command line: a 10%
// threshold, alpha 0.01, Benjamini-Hochberg, at least 5 samples per side,
// and DefaultRunSpread where the run-to-run spread is unknown.
func DefaultOptions() Options {
	return Options{Threshold: DefaultThresholdPercent / 100.0, Alpha: 0.01, Correction: CorrectionBH, MinSamples: 5, RunSpreadPrior: DefaultRunSpread, HistoryJobs: DefaultHistory,
		Inconclusive: DefaultInconclusive}
}

// CILevel returns the confidence level of the intervals, 1 − Alpha.
func (o Options) CILevel() float64 { return 1 - o.Alpha }

// An OptionError reports an invalid option: which one, and why.
type OptionError struct {
	Option string // the Options field, such as "Alpha" or "Overrides[2].Glob"
	Msg    string
}

func (e *OptionError) Error() string { return "compare: option " + e.Option + ": " + e.Msg }

// Validate checks the options, returning an *OptionError for the first bad one.
func (o Options) Validate() error {
	switch {
	case !(o.Alpha > 0 && o.Alpha < 1):
		return &OptionError{"Alpha", fmt.Sprintf("must be in (0, 1), got %v", o.Alpha)}
	case !(o.Threshold >= 0) || math.IsInf(o.Threshold, 0):
		return &OptionError{"Threshold", fmt.Sprintf("must be a finite fraction ≥ 0, got %v", o.Threshold)}
	case o.MinSamples < 2:
		return &OptionError{"MinSamples", fmt.Sprintf("must be at least 2, got %d", o.MinSamples)}
	case o.HistoryJobs < 0:
		return &OptionError{"HistoryJobs", fmt.Sprintf("must be ≥ 0, got %d", o.HistoryJobs)}
	case o.BaselineJobs < 0:
		return &OptionError{"BaselineJobs", fmt.Sprintf("must be ≥ 0, got %d", o.BaselineJobs)}
	case !(o.RunSpreadPrior >= 0) || o.RunSpreadPrior > 1:
		return &OptionError{"RunSpreadPrior", fmt.Sprintf("must be in [0, 1], got %v", o.RunSpreadPrior)}
	}
	if !validInconclusive(o.Inconclusive) {
		return &OptionError{"Inconclusive", fmt.Sprintf("must be one of %s, got %q", strings.Join(InconclusivePolicies, ", "), o.Inconclusive)}
	}
	if !validCorrection(o.Correction) {
		return &OptionError{"Correction", fmt.Sprintf("must be one of %s, got %q", strings.Join(Corrections, ", "), o.Correction)}
	}
	for i, ov := range o.Overrides {
		name := fmt.Sprintf("Overrides[%d]", i)
		if err := checkGlob(ov.Glob); err != nil && !(ov.Exact && ov.Glob != "") {
			return &OptionError{name + ".Glob", err.Error()}
		}
		if math.IsNaN(ov.Threshold) || math.IsInf(ov.Threshold, 0) {
			return &OptionError{name + ".Threshold", fmt.Sprintf("must be finite, got %v", ov.Threshold)}
		}
		if _, ok := model.ParseBetter(string(ov.Better)); ov.Better != "" && !ok {
			return &OptionError{name + ".Better", fmt.Sprintf("must be %q, %q or empty, got %q", model.Lower, model.Higher, ov.Better)}
		}
	}
	for i, g := range o.Ignore {
		if err := checkGlob(g); err != nil {
			return &OptionError{fmt.Sprintf("Ignore[%d]", i), err.Error()}
		}
	}
	return nil
}

func validCorrection(c string) bool {
	for _, v := range Corrections {
		if c == v {
			return true
		}
	}
	return false
}

func checkGlob(g string) error {
	if g == "" {
		return fmt.Errorf("empty pattern")
	}
	return model.CheckGlob(g)
}

// Match reports whether glob matches the benchmark key "suite/name" by
// perfgate's one glob rule, model.MatchGlob: segment-wise from the left, so
// "elementwise/*" matches every benchmark of the suite elementwise.
func Match(glob, key string) bool { return glob != "" && model.MatchGlob(glob, key) }

// settings are the effective threshold and direction of one benchmark.
type settings struct {
	threshold    float64
	better       model.Better
	betterPinned bool // an override set better: the data's own directions do not matter
}

// settingsFor applies the first matching override to a benchmark.
func (o Options) settingsFor(key string, better model.Better) settings {
	s := settings{threshold: o.Threshold, better: better}
	for _, ov := range o.Overrides {
		if !ov.matches(key) {
			continue
		}
		if ov.Threshold >= 0 {
			s.threshold = ov.Threshold
		}
		if ov.Better != "" {
			s.better, s.betterPinned = ov.Better, true
		}
		break
	}
	return s
}

// ignored reports whether a benchmark is left out of the comparison.
func (o Options) ignored(key string) bool {
	for _, g := range o.Ignore {
		if Match(g, key) {
			return true
		}
	}
	return false
}

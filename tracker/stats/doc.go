// Package stats owns the statistics behind perfgate's verdicts: the
// Mann-Whitney U test, the Hodges-Lehmann ratio estimate with its
// confidence interval, multiple-testing adjustments, descriptive summaries
// and a sample-size estimate.
//
// Every function is a pure function of its arguments: no I/O, no clock, no
// environment. The package must not import anything beyond the standard
// library and gonum, so that any part of perfgate can depend on it.
//
// Reference values in the tests come from scipy and R; the script that
// produced them is testdata/gen_reference.py.
package stats

import "errors"

// Errors returned for unusable input. They are wrapped with context, so
// match them with errors.Is.
var (
	// ErrEmptySample reports a sample with no values.
	ErrEmptySample = errors.New("empty sample")
	// ErrNonFinite reports a NaN or infinite value in a sample.
	ErrNonFinite = errors.New("non-finite value")
	// ErrNonPositive reports a value ≤ 0 where a ratio needs positive values.
	ErrNonPositive = errors.New("non-positive value")
	// ErrConfidence reports a confidence level outside (0, 1).
	ErrConfidence = errors.New("confidence level not in (0, 1)")
)

// Package confirm decides whether the regressions of a check hold when the
// regressed benchmarks are measured again in fresh processes. Samples of one
// process share its state, so a regression seen in one set of processes may
// be that state and not the code: the check re-runs what regressed and fails
// only if the regression holds on the original rounds and the re-runs
// together, judged against the same baseline.
//
// The package is pure: it takes the comparisons (the first check, the
// re-runs alone, and everything combined, all made by tracker/compare) and
// returns the final comparison and a record of what the re-run showed, which
// tracker/report renders. Running anything is the caller's job. It imports
// tracker/compare and tracker/model only.
package confirm

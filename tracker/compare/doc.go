// Package compare owns perfgate's verdicts: it pools the samples of baseline
// and candidate runs per benchmark, tests each benchmark with one-sided
// Mann-Whitney U tests, estimates the change with the Hodges-Lehmann ratio
// and its confidence interval, adjusts the p-values for multiple testing and
// decides one Verdict per benchmark.
//
// # The change
//
// Every change is a fraction where positive always means worse. Let r be the
// Hodges-Lehmann estimate of candidate/baseline (the median of all pairwise
// ratios cand_j/base_i). For lower-is-better units (time) the change is
// r − 1. For higher-is-better units (throughput) it is 1/r − 1, the change in
// the equivalent time per unit of work: a throughput drop from 100 to 90.9
// GB/s is +10%, exactly like a time rise from 100 to 110 ns, and a throughput
// drop from 100 to 90 GB/s is +11.1%. The same mapping applies to the
// confidence interval, so a physical slowdown counts the same whichever way
// a benchmark reports it, and the improvement threshold is the mirror image
// of the regression threshold on the log scale of time.
//
// # The tests
//
// Each benchmark with at least Options.MinSamples raw samples on both sides
// gets two one-sided Mann-Whitney tests: the worse direction (the candidate
// tends to be slower) and the better direction. The confidence interval is
// two-sided at level 1 − Alpha. The worse-direction p-values of all tested
// benchmarks of one comparison are adjusted together (Benjamini-Hochberg by
// default, Holm, or none), and likewise the better-direction ones.
//
// # Verdicts
//
//   - Regression: adjusted worse p < Alpha and change > threshold.
//   - Improvement: adjusted better p < Alpha and change < −threshold.
//   - Warn: neither, but the estimate is beyond ±threshold, or the
//     confidence interval reaches past ±threshold; the Reason estimates how
//     many more samples per side would decide it.
//   - Insufficient: fewer than MinSamples on either side, including new
//     benchmarks with no baseline.
//   - Unchanged: everything else; a significant 3% change is unchanged
//     under a 10% threshold.
//   - Error: the candidate reported an error for the benchmark, it vanished
//     from the candidate, its units cannot be reconciled, or the two sides
//     declare opposite directions (better) and no override pins one.
//   - Incomparable: no baseline run was usable because every stored run was
//     on a testbed that cannot be compared (see CompareBaseline).
//
// Summary-only samples (per-run means from tools that keep no raw samples)
// are never tested as raw samples: their change is the ratio of medians and
// their verdict is at most Warn.
//
// Everything here is a pure function of its arguments: no I/O, no clock, no
// environment. The package imports only tracker/model, tracker/stats and the
// standard library.
package compare

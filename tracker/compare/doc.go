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
// gets two one-sided Mann-Whitney tests on the pooled samples: the worse
// direction (the candidate tends to be slower) and the better direction.
//
// Samples of one process share its state, so each benchmark is also tested
// across runs, and that test decides: every run's log median is one
// replicate, runs are grouped into jobs by model.JobKey (a job's rounds and
// shards share run.group), the baseline history is cut into levels at its
// change points with isolated outlier jobs left out (levels.go), the
// run-to-run spread is estimated within the levels
// (stats.EstimateSegmented) and moderated towards a prior fitted across the
// comparison's benchmarks (stats.FitPrior, Options.Priors to pin one), and
// the candidate's mean is t-tested against the mean of the newest
// Options.BaselineJobs jobs of the newest level (stats.RunLevelTest); when
// the newest level is one job, against the level before too. Where the
// spread was measured, the change is that test's ratio, the confidence
// interval (two-sided at 1 − Alpha) is its own, widened to the
// Hodges-Lehmann interval where the samples are the less certain, and the
// baseline and candidate medians are the geometric means it compares. Each
// one-sided p-value is the larger of the two tests'. The worse-direction
// p-values of all tested benchmarks of one comparison are adjusted
// together (Benjamini-Hochberg by default, Holm, or none), and likewise the
// better-direction ones.
//
// # Verdicts
//
// Changes are compared with the threshold on the log scale, so that a change
// of exactly the threshold is judged the same at every scale.
//
//   - Regression: adjusted worse p < Alpha and change > threshold; where the
//     run-level test could not detect a threshold-sized change at Alpha, or
//     the history has fewer than MinGateJobs jobs, its lower bound must clear
//     the threshold too.
//   - Improvement: adjusted better p < Alpha and change < −threshold, with
//     the mirror condition for a Noisy benchmark.
//   - Noisy: not significant, the interval reaches past the threshold, and
//     the smallest change the run-level test could detect at the level the
//     correction reaches (Reach) is beyond it.
//   - NotYet ("not yet gateable"): what Noisy says, or a regression short of
//     its margin, with fewer than MinGateJobs jobs of history.
//   - Warn: evidence pointing past the threshold: the estimate is beyond
//     ±threshold but not significant, a change significant before the
//     adjustment has an interval past ±threshold, a slow-side quantile
//     (median, p75, p90) moved beyond it with significantly more samples
//     beyond the baseline's quantile than expected, or a regression against
//     main's newest job only (Result.MovedAt); the Reason says what would
//     decide it.
//   - Insufficient: fewer than MinSamples on either side, including new
//     benchmarks with no baseline.
//   - Unchanged: everything else; a significant 3% change is unchanged
//     under a 10% threshold and marked BelowThreshold.
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
// environment. The package imports only tracker/model, tracker/stats,
// tracker/changepoint, gonum and the standard library.
package compare

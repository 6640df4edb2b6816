// Package chart draws perfgate's pictures with gonum.org/v1/plot: the
// trend of benchmarks over runs (a confidence band per run, the change
// points marked), the comparison chart of one check (the change with
// its confidence interval per benchmark, sorted) and the per-run charts of
// a run's suites (median time and speedup by size, scaling.go; the grouping by size in scaling_groups.go). It is pure: it takes
// data, returns a plot or encoded bytes, and reads no files, clock or
// environment. It imports tracker/trend, tracker/model and gonum only.
package chart

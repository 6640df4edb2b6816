// Package changepoint finds the points where a benchmark's level shifts in
// an ordered history of run medians. It implements E-divisive means
// (Matteson and James, "A Nonparametric Approach for Multiple Change Point
// Analysis of Multivariate Data", JASA 2014) with the significance test of
// Hunter/Apache Otava (Fleming et al., "Hunter: Using Change Point
// Detection to Hunt for Performance Regressions", ICPE 2023): the split
// that maximises the energy-distance statistic is accepted when a
// two-sample Student t-test between the segments on either side of it is
// significant and the level moved by a minimum relative amount. The t-test
// (unlike the permutation test of the original method) can judge a split
// with a single run on one side, so a step is found at any position,
// including the first and the last runs.
//
// The package is pure: it reads no clock, files or environment and
// imports only the standard library.
package changepoint

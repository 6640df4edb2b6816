package model

import (
	"math"
	"slices"
	"strings"
)

// Canonical returns a copy of r in canonical form: the schema string set,
// the start time in UTC, benchmarks sorted by key, and empty maps and
// sample lists as absent. Two documents with the same content — whatever
// their benchmark order, time zone, or empty-versus-absent fields — have
// equal canonical forms. r is not modified.
func (r *Results) Canonical() *Results {
	c := *r
	c.Schema = Schema
	c.Run = CanonicalRun(r.Run)
	c.Benchmarks = slices.Clone(r.Benchmarks)
	for i := range c.Benchmarks {
		c.Benchmarks[i].Canonicalize()
	}
	slices.SortStableFunc(c.Benchmarks, func(x, y Benchmark) int {
		return strings.Compare(x.Key().String(), y.Key().String())
	})
	return &c
}

// CanonicalRun returns run in canonical form: the start time in UTC, an
// empty env as absent.
func CanonicalRun(run Run) Run {
	run.StartedAt = run.StartedAt.UTC()
	if len(run.Env) == 0 {
		run.Env = nil
	}
	return run
}

// Canonicalize puts b in canonical form: empty maps and sample lists as
// absent.
func (b *Benchmark) Canonicalize() {
	if len(b.Params) == 0 {
		b.Params = nil
	}
	if len(b.Metrics) == 0 {
		b.Metrics = nil
	}
	if len(b.Info) == 0 {
		b.Info = nil
	}
	if len(b.Samples) == 0 {
		b.Samples = nil
	}
}

// MedianCV returns the median of x and its coefficient of variation (sample
// standard deviation over the mean; 0 for fewer than two samples or a zero
// mean), as tracker/stats.Describe computes them, to the last bit. Both
// stores compute trend points with it, so they agree exactly. It returns
// NaN, 0 for no samples.
func MedianCV(x []float64) (median, cv float64) {
	median, cv, _ = MedianCVBuf(x, nil)
	return median, cv
}

// MedianCVBuf is MedianCV sorting a copy of x in buf, which it grows as
// needed and returns for the next call: a store recording a run a
// benchmark at a time allocates nothing per benchmark.
func MedianCVBuf(x, buf []float64) (median, cv float64, _ []float64) {
	n := len(x)
	if n == 0 {
		return math.NaN(), 0, buf
	}
	s := append(buf[:0], x...) // not slices.Sorted(slices.Values(x)): that grows its copy by appends, half of the cost for 100 samples
	slices.Sort(s)
	median = s[n/2]
	if n%2 == 0 { // stats' linear interpolation, for identical rounding
		median = s[n/2-1] + 0.5*(s[n/2]-s[n/2-1])
	}
	if n < 2 {
		return median, 0, s
	}
	var mean, ss float64
	for _, v := range s {
		mean += v
	}
	mean /= float64(n)
	for _, v := range s {
		ss += (v - mean) * (v - mean)
	}
	if mean == 0 {
		return median, 0, s
	}
	return median, math.Sqrt(ss/float64(n-1)) / mean, s
}

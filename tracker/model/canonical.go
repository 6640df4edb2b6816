package model

import (
	"crypto/sha256"
	"io"
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
	c.Run = canonicalRun(r.Run)
	c.Benchmarks = slices.Clone(r.Benchmarks)
	for i := range c.Benchmarks {
		canonicalBenchmark(&c.Benchmarks[i])
	}
	slices.SortStableFunc(c.Benchmarks, func(x, y Benchmark) int {
		return strings.Compare(x.Key().String(), y.Key().String())
	})
	return &c
}

// canonicalRun returns run in canonical form: the start time in UTC, an
// empty env as absent.
func canonicalRun(run Run) Run {
	run.StartedAt = run.StartedAt.UTC()
	if len(run.Env) == 0 {
		run.Env = nil
	}
	return run
}

// canonicalBenchmark puts b in canonical form: empty maps and sample lists
// as absent.
func canonicalBenchmark(b *Benchmark) {
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

// ContentHash returns the SHA-256 of r's canonical JSON (maps encode with
// sorted keys, floats in shortest form). Stores use it to tell a re-record
// of the same run (a no-op) from a conflicting one.
func (r *Results) ContentHash() ([]byte, error) {
	h := sha256.New()
	if err := r.Canonical().WriteJSON(h); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

// WriteJSON writes exactly the bytes of json.Marshal(r), compact, a
// benchmark at a time, so that hashing or storing a run of millions of
// samples needs no buffer of its whole JSON.
func (r *Results) WriteJSON(w io.Writer) error {
	ew := &errWriter{w: w}
	if err := writeHead(ew, r.Schema, r.Run); err != nil {
		return err
	}
	if r.Benchmarks == nil {
		ew.write([]byte(`,"benchmarks":null}`))
		return ew.err
	}
	ew.write([]byte(`,"benchmarks":[`))
	var buf []byte
	for i := range r.Benchmarks {
		var err error
		if buf, err = ew.writeBenchmark(buf, i, &r.Benchmarks[i]); err != nil {
			return err
		}
	}
	ew.write([]byte("]}"))
	return ew.err
}

// An errWriter keeps the first write error and skips writes after it.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) write(p []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(p)
	}
}

// writeBenchmark writes b as element i of a benchmarks array (a comma
// before all but the first), encoded in buf, which it returns for the
// next; the error is b's encoding's or the first write's.
func (e *errWriter) writeBenchmark(buf []byte, i int, b *Benchmark) ([]byte, error) {
	buf = buf[:0]
	if i > 0 {
		buf = append(buf, ',')
	}
	buf, err := b.AppendJSON(buf)
	if err != nil {
		return buf, err
	}
	e.write(buf)
	return buf, e.err
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

package model

import "math"

// A BenchmarkSummary stands for a benchmark of a run that a store
// summarized (BaselineQuery.SampleJobs): its key and unit, numbered by the
// run's SummaryKeys, and the summary of its samples (N = 0: it had none).
// It takes 24 bytes, the key's strings held once for all the runs of a
// baseline: a history of 17 runs of 10k benchmarks holds 170k of them.
type BenchmarkSummary struct {
	Key        int32 // SummaryKeys.At(Key) is the benchmark's key and unit
	N          int32 // RunSummary.N, at most math.MaxInt32
	Median, CV float64
}

// RunSummary returns the summary of the benchmark's samples.
func (s *BenchmarkSummary) RunSummary() RunSummary {
	return RunSummary{N: int(s.N), Median: s.Median, CV: s.CV}
}

// A SummaryKey is what a BenchmarkSummary's Key stands for: a benchmark's
// suite and name, and the unit of its samples in that run.
type SummaryKey struct{ Suite, Name, Unit string }

// Key returns the benchmark's key.
func (k SummaryKey) Key() Key { return Key{Suite: k.Suite, Name: k.Name} }

// SummaryKeys numbers the keys of the summarized runs of one baseline,
// which share it.
type SummaryKeys struct{ keys []SummaryKey }

// At returns the key numbered id.
func (t *SummaryKeys) At(id int32) SummaryKey { return t.keys[id] }

// SummaryKey returns the key and unit of r.Summaries[i].
func (r *Results) SummaryKey(i int) SummaryKey { return r.SummaryKeys.At(r.Summaries[i].Key) }

// A Summarizer reduces the benchmarks of summarized runs to their
// BenchmarkSummary, all the runs of one baseline sharing one SummaryKeys.
type Summarizer struct {
	q    *BaselineQuery
	keys *SummaryKeys
	ids  map[SummaryKey]int32 // the numbers of keys, while the runs are read
}

// Summarizer returns a Summarizer for the runs of one answer to q.
func (q *BaselineQuery) Summarizer() *Summarizer {
	return &Summarizer{q: q, keys: &SummaryKeys{}, ids: map[SummaryKey]int32{}}
}

// id returns the number of k, numbering it if it is new.
func (s *Summarizer) id(k SummaryKey) int32 {
	if id, ok := s.ids[k]; ok {
		return id
	}
	id := int32(len(s.keys.keys))
	s.keys.keys = append(s.keys.keys, k)
	s.ids[k] = id
	return id
}

// Add appends the summary of b to r.Summaries.
func (s *Summarizer) Add(r *Results, b *Benchmark) {
	row := BenchmarkSummary{Key: s.id(SummaryKey{Suite: b.Suite, Name: b.Name, Unit: b.Unit})}
	if len(b.Samples) > 0 {
		sum := s.q.Summarize(b.Samples)
		row.N, row.Median, row.CV = int32(min(sum.N, math.MaxInt32)), sum.Median, sum.CV
	}
	r.SummaryKeys = s.keys
	r.Summaries = append(r.Summaries, row)
}

// Keys returns the key table the runs s summarizes share.
func (s *Summarizer) Keys() *SummaryKeys { return s.keys }

// Reduce replaces the benchmarks of r by their summaries.
func (s *Summarizer) Reduce(r *Results) {
	r.Summaries, r.SummaryKeys = make([]BenchmarkSummary, 0, len(r.Benchmarks)), s.keys
	for i := range r.Benchmarks {
		s.Add(r, &r.Benchmarks[i])
	}
	r.Benchmarks = nil
}

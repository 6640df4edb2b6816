package compare

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/perfgate/perfgate/tracker/model"
)

// A segment is one run's samples of one benchmark, in that run's unit.
type segment struct {
	unit    string
	samples []float64
	job     int32 // the run's job: its rank among the side's jobs, newest first
	run     int32 // the run: its index among the side's runs
	pooled  bool  // the samples are pooled into the side's samples
	// sum stands for the samples (nil) of a history-only run that the
	// store summarized (model.BaselineQuery.SampleJobs).
	sum *model.BenchmarkSummary
}

// A segRef names a summary of a history-only run until its pool is judged:
// the run, an index into the baseline runs, and the summary in it
// (Summaries[idx]). It takes 8 bytes where a segment takes 64, and a
// comparison holds one for every summarized run and benchmark at once (17
// history jobs of 10k benchmarks: 170k), but the segments of the
// benchmarks being judged only. Runs with samples are held as segments
// from the start: they hold the samples themselves, not the runs, so that
// the runs' benchmarks can be collected once the pools are made.
type segRef struct{ run, idx int32 }

// A runSet is what segRefs index: the summarized baseline runs (nil for a
// run with samples) and every baseline run's job rank.
type runSet struct {
	summarized []*model.Results
	ranks      []int  // each baseline run's job rank
	baseJobs   int    // Options.BaselineJobs
	newest     string // the commit of the newest baseline job
}

// newestCommit returns the commit of the newest baseline job.
func (rs *runSet) newestCommit() string { return rs.newest }

// pooled reports whether the samples of baseline run j are pooled: whether
// its job is a baseline job, not a history-only one.
func (rs *runSet) pooled(j int) bool { return rs.baseJobs == 0 || rs.ranks[j] < rs.baseJobs }

// appendSummaries appends to segs the segments of segments and of the
// summaries refs name, merged in run order (each is in run order).
func (rs *runSet) appendSummaries(segs, segments []segment, refs []segRef) []segment {
	for _, ref := range refs {
		for len(segments) > 0 && segments[0].run < ref.run {
			segs, segments = append(segs, segments[0]), segments[1:]
		}
		r := rs.summarized[ref.run]
		sum := &r.Summaries[ref.idx]
		segs = append(segs, segment{r.SummaryKeys.At(sum.Key).Unit, nil, int32(rs.ranks[ref.run]), ref.run, false, sum})
	}
	return append(segs, segments...)
}

// A side is what one side (baseline or candidate) has of one benchmark.
type side struct {
	present  bool      // some run of this side has the benchmark
	segments []segment // the runs' samples of it, in run order; while the pool is judged, its summaries too (resolve)
	sums     []segRef  // the summaries of it, in run order
	errors   []string  // distinct error messages, in run order
	skipped  string    // why a run did not measure it on purpose (model.InfoSkipped)
	// summaryOnly: some run reported summaries, not raw samples.
	summaryOnly bool
	// draws is the most CUDA contexts a run measured it in, drawSpreads
	// those runs' spreads between contexts (model.MetricDrawSpread, %).
	draws       int
	drawSpreads []float64
	samples     []float64 // pooled, sorted, in the common unit (set by resolveUnit)
	// jobs holds each job's per-run summaries (log medians in the common
	// unit), by job rank (set by resolveUnit): the replicates the
	// run-level test and the spread are computed from.
	jobs jobLogs
}

// add notes run's benchmark, of job rank job. A run of a history-only job
// (pooled false) adds its samples to the run-to-run spread and nothing
// else.
func (s *side) add(b *model.Benchmark, run, job int, pooled bool, runs int) {
	if len(b.Samples) > 0 {
		if s.segments == nil { // most benchmarks are in every run: no garbage from growing
			s.segments = make([]segment, 0, runs)
		}
		s.segments = append(s.segments, segment{b.Unit, b.Samples, int32(job), int32(run), pooled, nil})
	}
	if !pooled {
		return
	}
	s.present = true
	if why := b.Info[model.InfoSkipped]; why != "" && len(b.Samples) == 0 {
		s.skipped = why
		return
	}
	if b.Error != "" && !slices.Contains(s.errors, b.Error) {
		s.errors = append(s.errors, b.Error)
	}
	s.summaryOnly = s.summaryOnly || b.SummaryOnly
	if d := int(b.Metrics[model.MetricDraws]); d > 1 {
		s.draws = max(s.draws, d)
		if v, ok := b.Metrics[model.MetricDrawSpread]; ok {
			s.drawSpreads = append(s.drawSpreads, v)
		}
	}
}

// addSum appends ref, making room for one of each of the side's runs
// first: most benchmarks are in every run, and growing by appending would
// leave as much garbage as it keeps.
func (s *side) addSum(ref segRef, runs int) {
	if s.sums == nil {
		s.sums = make([]segRef, 0, runs)
	}
	s.sums = append(s.sums, ref)
}

// A pool is one benchmark's samples from all runs of both sides.
type pool struct {
	key        model.Key
	unit       string // the common unit, once resolved
	better     model.Better
	baseBetter model.Better // the first baseline run's direction
	params     map[string]string
	base, cand side
	unitErr    string // why the units cannot be reconciled, if they cannot
	// otherSeries is the unit of baseline runs left out because it does
	// not convert to the candidate's: a unit or metric change starts a
	// new series, judged only against runs in its own unit.
	otherSeries string
	noise       *NoiseWarning
	runs        *runSet
	segs        *[]segment // the segments' storage while the pool is judged
}

// pools groups the benchmarks of all runs by key, leaving out ignored ones,
// and returns them sorted by suite, then name. Baseline runs of jobs ranked
// at or beyond opt.BaselineJobs only inform the run-to-run spread; the
// candidate runs are the rounds of one job.
func pools(baseline, candidate []*model.Results, opt Options) []*pool {
	rs := &runSet{summarized: make([]*model.Results, len(baseline)), ranks: jobRanks(baseline), baseJobs: opt.BaselineJobs}
	nsum := 0 // runs of summaries; the others have samples
	for j, r := range baseline {
		if rs.ranks[j] == 0 && rs.newest == "" {
			rs.newest = r.Run.Commit
		}
		if len(r.Summaries) > 0 {
			rs.summarized[j] = r
			nsum++
		}
	}
	byKey := map[model.Key]*pool{}
	var order []*pool
	// poolOf returns the pool of k, made on first sight; nil when k is ignored.
	poolOf := func(k model.Key) *pool {
		if opt.ignored(k.String()) {
			return nil
		}
		p := byKey[k]
		if p == nil {
			p = &pool{key: k, runs: rs}
			byKey[k] = p
			order = append(order, p)
		}
		return p
	}
	for j, r := range baseline {
		pooled := rs.pooled(j)
		for i := range r.Benchmarks {
			b := &r.Benchmarks[i]
			if p := poolOf(b.Key()); p != nil {
				p.note(b, false, j, rs.ranks[j], pooled, len(baseline)-nsum)
			}
		}
		for i := range r.Summaries { // a history-only run a store summarized
			s := &r.Summaries[i]
			if p := poolOf(r.SummaryKeys.At(s.Key).Key()); p != nil && s.N > 0 {
				p.base.addSum(segRef{int32(j), int32(i)}, nsum)
			}
		}
	}
	for j, r := range candidate {
		for i := range r.Benchmarks {
			b := &r.Benchmarks[i]
			if p := poolOf(b.Key()); p != nil {
				p.note(b, true, j, 0, true, len(candidate)) // the candidate runs are the rounds of one job
			}
		}
	}
	slices.SortFunc(order, func(a, b *pool) int {
		return cmp.Or(strings.Compare(a.key.Suite, b.key.Suite), strings.Compare(a.key.Name, b.key.Name))
	})
	return order
}

// A scratch is one worker's space for resolveUnit.
type scratch struct {
	median []float64 // a copy of a run's samples, which the median reorders
	logs   []jobLog  // a side's per-run summaries, before packJobs
}

// scratchPool holds the scratches of resolveUnit, one per worker;
// segmentPool the segments of the pools being judged.
var (
	scratchPool = sync.Pool{New: func() any { return new(scratch) }}
	segmentPool = sync.Pool{New: func() any { return new([]segment) }}
)

// resolve resolves the pool's unit and pools its samples (resolveUnit)
// just before it is judged, and release drops the pooled samples once it
// is: so only the benchmarks being judged hold pooled copies at a time,
// not every benchmark of the comparison.
func (p *pool) resolve(inPlace bool) {
	if len(p.base.sums) > 0 {
		p.segs = segmentPool.Get().(*[]segment)
		*p.segs = p.runs.appendSummaries((*p.segs)[:0], p.base.segments, p.base.sums)
		p.base.segments = *p.segs
	}
	sc := scratchPool.Get().(*scratch)
	p.resolveUnit(sc, inPlace)
	scratchPool.Put(sc)
}

func (p *pool) release() {
	p.base.samples, p.cand.samples = nil, nil
	p.base.segments, p.cand.segments = nil, nil
	p.base.sums = nil
	if p.segs != nil {
		clear(*p.segs) // let go of the samples
		segmentPool.Put(p.segs)
		p.segs = nil
	}
}

// note adds one run's benchmark to the pool. The first candidate run's
// declared direction and parameters win over the baseline's: they describe
// the code under review. (Where the directions differ, assess makes the
// verdict an error unless an override pins the direction.)
func (p *pool) note(b *model.Benchmark, cand bool, run, job int, pooled bool, runs int) {
	if !pooled {
		p.base.add(b, run, job, false, runs)
		return
	}
	if cand && !p.cand.present || p.better == "" {
		p.better, p.params = b.Better, b.Params
	}
	if !cand && p.baseBetter == "" {
		p.baseBetter = b.Better
	}
	if cand {
		p.cand.add(b, run, job, true, runs)
	} else {
		p.base.add(b, run, job, true, runs)
	}
}

// jobRanks returns each run's job rank: jobs (model.JobKey: a run group, or
// a lone run) numbered in order of first appearance, so that for runs given
// newest first, rank 0 is the newest job.
func jobRanks(runs []*model.Results) []int {
	jobs := make([]model.JobKey, len(runs))
	for i, r := range runs {
		jobs[i] = r.Run.JobKey()
	}
	return model.JobRanks(jobs)
}

// resolveUnit picks the common unit (the candidate's first, else the
// baseline's first), converts every segment to it and pools each side's
// samples, sorted, into a new slice (the runs' own samples stay untouched,
// unless inPlace lets a side whose one run needs no conversion have that
// run's samples sorted in place instead of copied). Time units convert
// into each other. A baseline segment in a unit that does not convert to the
// candidate's belongs to another series (the metric changed) and is left
// out, noted in otherSeries; a disagreement within the candidate's runs is
// recorded in unitErr. The noise
// warning is taken first, from the runs' samples in their order.
func (p *pool) resolveUnit(sc *scratch, inPlace bool) {
	switch {
	case len(p.cand.segments) > 0:
		p.unit = p.cand.segments[0].unit
	case len(p.base.segments) > 0:
		p.unit = p.base.segments[0].unit
	default:
		return
	}
	p.noise = noiseWarning(p)
	for _, s := range []*side{&p.base, &p.cand} {
		sc.logs = sc.logs[:0]
		if inPlace && len(s.segments) == 1 && s.segments[0].pooled && s.segments[0].unit == p.unit {
			seg := s.segments[0]
			s.addSummary(seg, 1, sc)
			s.jobs = packJobs(sc.logs)
			s.samples = seg.samples
			slices.Sort(s.samples)
			continue
		}
		n := 0
		for _, seg := range s.segments {
			if seg.pooled {
				n += len(seg.samples)
			}
		}
		s.samples = make([]float64, 0, n)
		for _, seg := range s.segments {
			scale, ok := conversion(seg.unit, p.unit)
			if !ok {
				if s == &p.base && len(p.cand.segments) > 0 {
					p.otherSeries = seg.unit
					continue // another series: neither baseline nor spread
				}
				if seg.pooled {
					p.unitErr = fmt.Sprintf("incompatible units %q and %q", seg.unit, p.unit)
					s.jobs = packJobs(sc.logs)
					return
				}
				continue // an older job in another unit: left out of the spread
			}
			s.addSummary(seg, scale, sc)
			if !seg.pooled {
				continue
			}
			for _, v := range seg.samples {
				s.samples = append(s.samples, v*scale)
			}
		}
		s.jobs = packJobs(sc.logs)
		// Sorted once here, the sorts inside the tests run in linear time.
		slices.Sort(s.samples)
	}
}

// conversion returns the factor that converts values in unit from to unit to.
func conversion(from, to string) (float64, bool) {
	if from == to {
		return 1, true
	}
	if model.IsTimeUnit(from) && model.IsTimeUnit(to) {
		return model.NanosPer(from) / model.NanosPer(to), true
	}
	return 0, false
}

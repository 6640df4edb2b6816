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
	job     int  // the run's job: its rank among the side's jobs, newest first
	pooled  bool // the samples are pooled into the side's samples
	// sum stands for the samples (nil) of a history-only run that the
	// store summarized (model.BaselineQuery.SampleJobs).
	sum *model.BenchmarkSummary
}

// A segRef names a segment until its pool is judged: its run, an index
// into the side's runs, and the benchmark in it (idx ≥ 0: Benchmarks[idx],
// else Summaries[^idx]). It takes 8 bytes where a segment takes 64, and a
// comparison holds one for every run and benchmark at once (20 runs of 10k
// benchmarks: 200k), but the segments of the benchmarks being judged only.
type segRef struct{ run, idx int32 }

// A runSet is the runs of a comparison that segRefs index.
type runSet struct {
	base, cand []*model.Results
	ranks      []int // each baseline run's job rank
	baseJobs   int   // Options.BaselineJobs
}

// pooled reports whether the samples of baseline run j are pooled: whether
// its job is a baseline job, not a history-only one.
func (rs *runSet) pooled(j int) bool { return rs.baseJobs == 0 || rs.ranks[j] < rs.baseJobs }

// appendSegments appends the segments refs name to segs, those of
// baseline runs (base) or candidate runs.
func (rs *runSet) appendSegments(segs []segment, refs []segRef, base bool) []segment {
	runs := rs.cand
	if base {
		runs = rs.base
	}
	for _, ref := range refs {
		r := runs[ref.run]
		switch {
		case !base: // the candidate runs are the rounds of one job
			b := &r.Benchmarks[ref.idx]
			segs = append(segs, segment{b.Unit, b.Samples, 0, true, nil})
		case ref.idx >= 0:
			b := &r.Benchmarks[ref.idx]
			segs = append(segs, segment{b.Unit, b.Samples, rs.ranks[ref.run], rs.pooled(int(ref.run)), nil})
		default:
			sum := &r.Summaries[^ref.idx]
			segs = append(segs, segment{r.SummaryKeys.At(sum.Key).Unit, nil, rs.ranks[ref.run], false, sum})
		}
	}
	return segs
}

// A side is what one side (baseline or candidate) has of one benchmark.
type side struct {
	present     bool      // some run of this side has the benchmark
	refs        []segRef  // the runs' samples and summaries of it, in run order
	segments    []segment // what refs name, while the pool is judged (resolve)
	errors      []string  // distinct error messages, in run order
	skipped     string    // why a run did not measure it on purpose (model.InfoSkipped)
	summaryOnly bool      // some run reported summaries, not raw samples
	samples     []float64 // pooled, sorted, in the common unit (set by resolveUnit)
	// jobs holds each job's per-run summaries (log medians in the common
	// unit), by job rank (set by resolveUnit): the replicates the
	// run-level test and the spread are computed from.
	jobs jobLogs
}

// add notes one run's benchmark (ref). A run of a history-only job (pooled
// false) adds its samples to the run-to-run spread and nothing else.
func (s *side) add(b *model.Benchmark, ref segRef, pooled bool, runs int) {
	if len(b.Samples) > 0 {
		s.addRef(ref, runs)
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
}

// addRef appends ref, making room for one of each of the side's runs
// first: most benchmarks are in every run, and growing refs by appending
// would leave as much garbage as it keeps.
func (s *side) addRef(ref segRef, runs int) {
	if s.refs == nil {
		s.refs = make([]segRef, 0, runs)
	}
	s.refs = append(s.refs, ref)
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
	noise      *NoiseWarning
	runs       *runSet
	segs       *[]segment // the segments' storage while the pool is judged
}

// pools groups the benchmarks of all runs by key, leaving out ignored ones,
// and returns them sorted by suite, then name. Baseline runs of jobs ranked
// at or beyond opt.BaselineJobs only inform the run-to-run spread; the
// candidate runs are the rounds of one job.
func pools(baseline, candidate []*model.Results, opt Options) []*pool {
	rs := &runSet{base: baseline, cand: candidate, ranks: jobRanks(baseline), baseJobs: opt.BaselineJobs}
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
				p.note(b, false, segRef{int32(j), int32(i)}, pooled)
			}
		}
		for i := range r.Summaries { // a history-only run a store summarized
			s := &r.Summaries[i]
			if p := poolOf(r.SummaryKeys.At(s.Key).Key()); p != nil && s.N > 0 {
				p.base.addRef(segRef{int32(j), int32(^i)}, len(baseline))
			}
		}
	}
	for j, r := range candidate {
		for i := range r.Benchmarks {
			b := &r.Benchmarks[i]
			if p := poolOf(b.Key()); p != nil {
				p.note(b, true, segRef{int32(j), int32(i)}, true)
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
	p.segs = segmentPool.Get().(*[]segment)
	segs := p.runs.appendSegments((*p.segs)[:0], p.base.refs, true)
	n := len(segs)
	segs = p.runs.appendSegments(segs, p.cand.refs, false)
	p.base.segments, p.cand.segments, *p.segs = segs[:n:n], segs[n:], segs
	sc := scratchPool.Get().(*scratch)
	p.resolveUnit(sc, inPlace)
	scratchPool.Put(sc)
}

func (p *pool) release() {
	p.base.samples, p.cand.samples = nil, nil
	p.base.segments, p.cand.segments = nil, nil
	p.base.refs, p.cand.refs = nil, nil
	clear(*p.segs) // let go of the samples
	segmentPool.Put(p.segs)
	p.segs = nil
}

// note adds one run's benchmark to the pool. The first candidate run's
// declared direction and parameters win over the baseline's: they describe
// the code under review. (Where the directions differ, assess makes the
// verdict an error unless an override pins the direction.)
func (p *pool) note(b *model.Benchmark, cand bool, ref segRef, pooled bool) {
	if !pooled {
		p.base.add(b, ref, false, len(p.runs.base))
		return
	}
	if cand && !p.cand.present || p.better == "" {
		p.better, p.params = b.Better, b.Params
	}
	if !cand && p.baseBetter == "" {
		p.baseBetter = b.Better
	}
	if cand {
		p.cand.add(b, ref, true, len(p.runs.cand))
	} else {
		p.base.add(b, ref, true, len(p.runs.base))
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
// into each other; any other disagreement is recorded in unitErr. The noise
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

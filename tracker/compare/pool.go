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
	sum *model.RunSummary
}

// A side is what one side (baseline or candidate) has of one benchmark.
type side struct {
	present     bool      // some run of this side has the benchmark
	segments    []segment // in run order
	errors      []string  // distinct error messages, in run order
	skipped     string    // why a run did not measure it on purpose (model.InfoSkipped)
	summaryOnly bool      // some run reported summaries, not raw samples
	samples     []float64 // pooled, sorted, in the common unit (set by resolveUnit)
	// jobs holds each job's per-run summaries (log medians in the common
	// unit), indexed by job rank (set by resolveUnit): the replicates the
	// run-level test and the spread are computed from.
	jobs [][]float64
}

// add notes one run's benchmark. A run of a history-only job (pooled false)
// adds its samples to the run-to-run spread and nothing else.
func (s *side) add(b *model.Benchmark, job int, pooled bool) {
	if len(b.Samples) > 0 {
		s.segments = append(s.segments, segment{b.Unit, b.Samples, job, pooled, nil})
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
}

// pools groups the benchmarks of all runs by key, leaving out ignored ones,
// and returns them sorted by suite, then name. Baseline runs of jobs ranked
// at or beyond opt.BaselineJobs only inform the run-to-run spread; the
// candidate runs are the rounds of one job.
func pools(baseline, candidate []*model.Results, opt Options) []*pool {
	byKey := map[model.Key]*pool{}
	var order []*pool
	// poolOf returns the pool of k, made on first sight; nil when k is ignored.
	poolOf := func(k model.Key) *pool {
		if opt.ignored(k.String()) {
			return nil
		}
		p := byKey[k]
		if p == nil {
			p = &pool{key: k}
			byKey[k] = p
			order = append(order, p)
		}
		return p
	}
	add := func(runs []*model.Results, cand bool) {
		ranks := make([]int, len(runs)) // the candidate: one job
		if !cand {
			ranks = jobRanks(runs)
		}
		for j, r := range runs {
			pooled := cand || opt.BaselineJobs == 0 || ranks[j] < opt.BaselineJobs
			for i := range r.Benchmarks {
				b := &r.Benchmarks[i]
				if p := poolOf(b.Key()); p != nil {
					p.note(b, cand, ranks[j], pooled)
				}
			}
			for i := range r.Summaries { // a history-only run a store summarized
				s := &r.Summaries[i]
				if p := poolOf(model.Key{Suite: s.Suite, Name: s.Name}); p != nil && s.N > 0 {
					p.base.segments = append(p.base.segments, segment{s.Unit, nil, ranks[j], false, &s.RunSummary})
				}
			}
		}
	}
	add(baseline, false)
	add(candidate, true)
	slices.SortFunc(order, func(a, b *pool) int {
		return cmp.Or(strings.Compare(a.key.Suite, b.key.Suite), strings.Compare(a.key.Name, b.key.Name))
	})
	return order
}

// scratchPool holds the scratch slices of resolveUnit, one per worker.
var scratchPool = sync.Pool{New: func() any { return new([]float64) }}

// resolve resolves the pool's unit and pools its samples (resolveUnit)
// just before it is judged, and release drops the pooled samples once it
// is: so only the benchmarks being judged hold pooled copies at a time,
// not every benchmark of the comparison.
func (p *pool) resolve(inPlace bool) {
	scratch := scratchPool.Get().(*[]float64)
	p.resolveUnit(scratch, inPlace)
	scratchPool.Put(scratch)
}

func (p *pool) release() {
	p.base.samples, p.cand.samples = nil, nil
	p.base.segments, p.cand.segments = nil, nil
}

// note adds one run's benchmark to the pool. The first candidate run's
// declared direction and parameters win over the baseline's: they describe
// the code under review. (Where the directions differ, assess makes the
// verdict an error unless an override pins the direction.)
func (p *pool) note(b *model.Benchmark, cand bool, job int, pooled bool) {
	if !pooled {
		p.base.add(b, job, false)
		return
	}
	if cand && !p.cand.present || p.better == "" {
		p.better, p.params = b.Better, b.Params
	}
	if !cand && p.baseBetter == "" {
		p.baseBetter = b.Better
	}
	if cand {
		p.cand.add(b, job, true)
	} else {
		p.base.add(b, job, true)
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
func (p *pool) resolveUnit(scratch *[]float64, inPlace bool) {
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
		if inPlace && len(s.segments) == 1 && s.segments[0].pooled && s.segments[0].unit == p.unit {
			seg := s.segments[0]
			s.addSummary(seg, 1, scratch)
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
					return
				}
				continue // an older job in another unit: left out of the spread
			}
			s.addSummary(seg, scale, scratch)
			if !seg.pooled {
				continue
			}
			for _, v := range seg.samples {
				s.samples = append(s.samples, v*scale)
			}
		}
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

package compare

import (
	"math"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/stats"
)

// SummarizeRun returns what the run-to-run spread uses of one run's samples
// of a benchmark (model.RunSummary): a store that summarizes the runs of
// history-only jobs (model.BaselineQuery.Summarize) calls it, so a
// comparison reads the same figures from a summary as from the samples.
// It leaves samples as they are.
func SummarizeRun(samples []float64) model.RunSummary {
	return model.RunSummary{N: len(samples), Median: runMedian(samples, new([]float64)), CV: segmentCV(samples)}
}

// runMedian is the median of one run's samples, computed on a copy in
// scratch (the median reorders it).
func runMedian(samples []float64, scratch *[]float64) float64 {
	*scratch = append((*scratch)[:0], samples...)
	return stats.MedianInPlace(*scratch)
}

// addSummary adds one run's summary, the log of its median in the common
// unit, for the job the run belongs to, to sc.logs (packJobs makes them the
// side's jobs).
func (s *side) addSummary(seg segment, scale float64, sc *scratch) {
	m := seg.median(&sc.median) * scale
	if !(m > 0) || math.IsInf(m, 0) {
		return // no log: the run-level test will see one replicate less
	}
	sc.logs = append(sc.logs, jobLog{int(seg.job), math.Log(m)})
}

// A jobLog is one run's summary (addSummary) and its job.
type jobLog struct {
	job int
	v   float64
}

// jobLogs are the per-run summaries of a side's jobs, job by job: job j's
// are vals[starts[j]:starts[j+1]] (to the end for the last). Two flat
// slices rather than one per job, since a comparison holds them for every
// benchmark at once (20 jobs: 240 bytes a benchmark, not 930).
type jobLogs struct {
	vals   []float64
	starts []int32
}

// packJobs groups logs (in run order) by job, keeping each job's in order.
// There are as many jobs as the highest job of logs, plus one.
func packJobs(logs []jobLog) jobLogs {
	if len(logs) == 0 {
		return jobLogs{}
	}
	n := 0
	for _, l := range logs {
		n = max(n, l.job+1)
	}
	js := jobLogs{vals: make([]float64, len(logs)), starts: make([]int32, n)}
	for _, l := range logs { // each job's end
		js.starts[l.job]++
	}
	for j := 1; j < n; j++ {
		js.starts[j] += js.starts[j-1]
	}
	for i := len(logs) - 1; i >= 0; i-- { // from the end, so each end becomes its start
		l := logs[i]
		js.starts[l.job]--
		js.vals[js.starts[l.job]] = l.v
	}
	return js
}

// len returns how many jobs js holds, empty ones included.
func (js jobLogs) len() int { return len(js.starts) }

// job returns the summaries of job j.
func (js jobLogs) job(j int) []float64 {
	end := len(js.vals)
	if j+1 < len(js.starts) {
		end = int(js.starts[j+1])
	}
	return js.vals[js.starts[j]:end:end]
}

// all returns the summaries of every job, one slice a job.
func (js jobLogs) all() [][]float64 {
	out := make([][]float64, js.len())
	for j := range out {
		out[j] = js.job(j)
	}
	return out
}

// median is the median of the segment's samples, or its summary's.
func (seg segment) median(scratch *[]float64) float64 {
	if seg.sum != nil {
		return seg.sum.Median
	}
	return runMedian(seg.samples, scratch)
}

// cv is the coefficient of variation of the segment's samples (segmentCV),
// or its summary's.
func (seg segment) cv() float64 {
	if seg.sum != nil {
		return seg.sum.CV
	}
	return segmentCV(seg.samples)
}

// A runLevel is the test of one benchmark across runs.
type runLevel struct {
	test   stats.RunTest
	spread stats.Spread // moderated
	// worse is the run-level change in the worse direction (log scale):
	// test.Delta, or −Delta for higher-is-better.
	worse float64
	// low and high are the one-sided (1 − Alpha) bounds of worse: the
	// change is above low, and below high, at that confidence.
	low, high         float64
	base, hist, cands int // baseline jobs tested, jobs in the spread, candidate rounds
	// prev is the test against the level before, when main moved at its
	// newest job (levels.moved); nil otherwise.
	prev *runLevel
}

// estimateSpread segments the benchmark's baseline history into levels and
// estimates its run-to-run spread within them (stats.EstimateSegmented)
// from every job the baseline side holds (history included) and the
// candidate's rounds.
func (it *item) estimateSpread() {
	all := it.pool.base.jobs.all()
	it.levels = levelsOf(all)
	it.spread = stats.EstimateSegmented(all, it.candRounds(), it.levels.segment, it.levels.drop)
}

func (it *item) candRounds() []float64 {
	if it.pool.cand.jobs.len() > 0 {
		return it.pool.cand.jobs.job(0)
	}
	return nil
}

// runLevelTest tests the benchmark across runs: the candidate's rounds
// against the newest Options.BaselineJobs jobs of the newest level of the
// baseline history, under its spread moderated by the comparison's priors
// (stats.Spread.Moderate). When main moved at its newest job, the level
// before is tested too (prev).
func (it *item) runLevelTest(opt Options, pr Priors) runLevel {
	all := it.pool.base.jobs.all()
	sp := it.spread.Moderate(pr.Jobs, pr.Rounds)
	rl := it.testAgainst(opt, pick(all, it.levels.last, opt.BaselineJobs), sp)
	rl.hist = nonEmpty(all)
	if it.levels.moved() {
		prev := it.testAgainst(opt, pick(all, it.levels.prev, opt.BaselineJobs), sp)
		rl.prev = &prev
	}
	return rl
}

func (it *item) testAgainst(opt Options, base [][]float64, sp stats.Spread) runLevel {
	cand := it.candRounds()
	t := stats.RunLevelTest(base, cand, sp, opt.jobPrior())
	rl := runLevel{test: t, spread: sp, worse: t.Delta, base: nonEmpty(base), cands: len(cand)}
	if it.res.Better == model.Higher {
		rl.worse = -t.Delta
	}
	one := t.Quantile(1-opt.Alpha) * t.SE
	rl.low, rl.high = rl.worse-one, rl.worse+one
	return rl
}

// jobPrior is the job effect assumed where the runs cannot estimate it.
// The rounds of an interleaved A/B share one job with the baseline's, so the
// job effect cancels and only the rounds' own spread is left: none.
func (o Options) jobPrior() float64 {
	if o.Interleaved {
		return 0
	}
	return o.RunSpreadPrior
}

// Priors are the priors that a comparison moderates each benchmark's
// run-to-run spread with (stats.Spread.Moderate): of the job means'
// variance and of the rounds', each fitted across the comparison's tested
// benchmarks (stats.FitPrior). A zero Prior moderates nothing.
type Priors struct {
	Jobs, Rounds stats.Prior
}

// fitPriors fits the priors to the spreads of the tested items.
func fitPriors(items []item) Priors {
	var jv, jd, wv, wd []float64
	for i := range items {
		s := items[i].spread
		if !items[i].tested {
			continue
		}
		if s.DFBetween > 0 {
			jv, jd = append(jv, s.JobVar), append(jd, s.DFBetween)
		}
		if s.DFWithin > 0 {
			wv, wd = append(wv, s.Within), append(wd, s.DFWithin)
		}
	}
	return Priors{Jobs: atLeast(stats.FitPrior(jv, jd)), Rounds: atLeast(stats.FitPrior(wv, wd))}
}

// MinPriorDF is the least weight, in degrees of freedom, a fitted prior
// gets: one job's worth. Benchmarks whose spreads differ by orders of
// magnitude fit a prior of almost no weight, and then a benchmark whose
// few jobs agree to the last digit (timings quantised to the timer's
// resolution) would have no spread at all and make any difference
// significant.
const MinPriorDF = 1

func atLeast(p stats.Prior) stats.Prior {
	if p.DF > 0 && p.DF < MinPriorDF {
		p.DF = MinPriorDF
	}
	return p
}

func nonEmpty(jobs [][]float64) int {
	n := 0
	for _, j := range jobs {
		if len(j) > 0 {
			n++
		}
	}
	return n
}

// apply makes the run-level test the benchmark's estimate and test where
// the spread between runs was measured: the change is the ratio of the
// candidate's mean log summary to the baseline jobs' (the baseline and
// candidate columns become those geometric means, in the benchmark's unit),
// the confidence interval is the test's, two-sided at 1 − Alpha, and each
// one-sided p-value is the larger of its and the pooled samples'
// Mann-Whitney test's, so that a verdict needs both to agree. reach is the smallest raw p-value the
// multiple-comparison correction can let pass (Reach); Detectable is the
// smallest change the test can call significant at it. Where the spread
// was not measured (one job a side, no rounds), the samples' estimate
// stands and the assumed prior guards its p-values only: each one-sided
// p-value becomes the larger of the two tests'.
func (rl runLevel) apply(r *Result, alpha, prior, reach float64) {
	t := rl.test
	r.Rounds, r.BaselineJobs, r.HistoryJobs = rl.cands, rl.base, rl.hist
	if math.IsNaN(t.Delta) {
		return
	}
	pw, pb := t.Greater, t.Less
	if r.Better == model.Higher {
		pw, pb = pb, pw
	}
	r.PRun = pw
	r.SpreadKnown = rl.spread.DFBetween > 0
	if !r.SpreadKnown {
		r.PValue, r.PBetter = max(r.PValue, pw), max(r.PBetter, pb)
		r.RunSpread = math.Expm1(math.Sqrt(rl.spread.Within + prior*prior))
		return
	}
	// The samples must agree too: a candidate run on a busy host has a
	// median the history's spread knows nothing of, and the pooled
	// samples' test sees it. Where they are the less certain in the
	// direction of the change, their interval widens the run-level one.
	mw := r.PValue
	if rl.worse < 0 {
		mw, pw = r.PBetter, pb
	}
	samples := mw > pw
	hlLo, hlHi := r.CILow, r.CIHigh
	r.PValue, r.PBetter = max(r.PValue, t.Greater), max(r.PBetter, t.Less)
	if r.Better == model.Higher {
		r.PValue, r.PBetter = max(r.PValue, t.Less), max(r.PBetter, t.Greater)
	}
	r.RunSpread = math.Expm1(math.Sqrt(rl.spread.RunVar()))
	r.Detectable = math.Expm1(t.Quantile(1-reach) * t.SE)
	half := t.Quantile(1-alpha/2) * t.SE
	r.Change = math.Expm1(rl.worse)
	r.CILow, r.CIHigh = math.Expm1(rl.worse-half), math.Expm1(rl.worse+half)
	if samples && !math.IsNaN(hlLo) {
		r.CILow, r.CIHigh = min(r.CILow, hlLo), max(r.CIHigh, hlHi)
	}
	r.BaselineMedian, r.CandidateMedian = math.Exp(t.Base), math.Exp(t.Base+t.Delta)
	r.RunLevel = true
}

// Reach is the smallest raw p-value that the correction can let pass
// among tested benchmarks when one benchmark alone changed: alpha/tested
// for Benjamini-Hochberg and Holm alike, alpha without a correction.
func Reach(correction string, alpha float64, tested int) float64 {
	if correction == CorrectionNone || tested <= 1 {
		return alpha
	}
	return alpha / float64(tested)
}

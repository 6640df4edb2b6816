package compare

import (
	"math"
	"slices"

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
	spread stats.Spread
	// worse is the run-level change in the worse direction (log scale):
	// test.Delta, or −Delta for higher-is-better.
	worse float64
	// low and high are the one-sided (1 − Alpha) bounds of worse: the
	// change is above low, and below high, at that confidence.
	low, high         float64
	base, hist, cands int // baseline jobs tested, jobs in the spread, candidate rounds
}

// estimateSpread estimates the benchmark's run-to-run spread from every job
// the baseline side holds (history included) and the candidate's rounds.
func (it *item) estimateSpread() {
	it.spread = stats.EstimateSpread(it.pool.base.jobs.all(), it.candRounds())
}

func (it *item) candRounds() []float64 {
	if it.pool.cand.jobs.len() > 0 {
		return it.pool.cand.jobs.job(0)
	}
	return nil
}

// runLevelTest tests the benchmark across runs: the candidate's rounds
// against the baseline jobs, under its spread floored by peer (see
// stats.FloorSpread).
func (it *item) runLevelTest(opt Options, peer float64) runLevel {
	p := it.pool
	all := p.base.jobs.all()
	base := all
	if opt.BaselineJobs > 0 {
		base = all[:min(opt.BaselineJobs, len(all))]
	}
	cand := it.candRounds()
	sp := stats.FloorSpread(it.spread, peer)
	t := stats.RunLevelTest(base, cand, sp, opt.jobPrior())
	rl := runLevel{test: t, spread: sp, worse: t.Delta,
		base: nonEmpty(base), hist: nonEmpty(all), cands: len(cand)}
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

// peerVariance is the typical job-mean variance of the tested benchmarks
// whose spread was measured: the median of their JobVar (0 when none).
func peerVariance(items []item) float64 {
	var v []float64
	for i := range items {
		if items[i].tested && items[i].spread.DFBetween > 0 {
			v = append(v, items[i].spread.JobVar)
		}
	}
	if len(v) == 0 {
		return 0
	}
	slices.Sort(v)
	return stats.Quantile(v, 0.5)
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

// apply folds the run-level test into the result: each one-sided p-value
// becomes the larger of the within-run (Mann-Whitney) and the run-level one,
// so a verdict needs both the samples and the runs to agree. Where the
// spread between jobs was measured, the confidence interval also becomes
// the hull of both, and the spread and the smallest detectable change are
// recorded. Where it was not (one job a side), the assumed prior guards the
// p-values only: an assumed spread widens no interval and makes nothing
// noisy.
func (rl runLevel) apply(r *Result, alpha, prior float64) {
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
	r.PValue, r.PBetter = max(r.PValue, pw), max(r.PBetter, pb)
	r.SpreadKnown = rl.spread.DFBetween > 0
	if !r.SpreadKnown {
		r.RunSpread = math.Expm1(math.Sqrt(rl.spread.Within + prior*prior))
		return
	}
	r.RunSpread = math.Expm1(math.Sqrt(rl.spread.RunVar()))
	r.Detectable = math.Expm1(t.Quantile(1-alpha) * t.SE)
	half := t.Quantile(1-alpha/2) * t.SE
	lo, hi := math.Expm1(rl.worse-half), math.Expm1(rl.worse+half)
	if math.IsNaN(r.CILow) {
		r.CILow, r.CIHigh = lo, hi
	} else {
		r.CILow, r.CIHigh = min(r.CILow, lo), max(r.CIHigh, hi)
	}
}

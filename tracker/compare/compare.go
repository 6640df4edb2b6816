package compare

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/stats"
)

// A Verdict is the outcome for one benchmark.
type Verdict string

// The verdicts, from the package documentation.
const (
	Regression   Verdict = "regression"
	Improvement  Verdict = "improvement"
	Warn         Verdict = "warn"
	Insufficient Verdict = "insufficient"
	Unchanged    Verdict = "unchanged"
	Error        Verdict = "error"
	Incomparable Verdict = "incomparable"
	// Noisy: the runs move so much between processes that a change of the
	// threshold's size cannot be told from noise, and the change did not
	// clear the threshold by the margin the spread demands.
	Noisy Verdict = "noisy"
	// NotYet: what Noisy says, with a history shorter than MinGateJobs
	// jobs: the spread between runs is not yet measured well enough to
	// gate the benchmark. Not a failure.
	NotYet Verdict = "not yet gateable"
	// Skipped: not measured on purpose (model.InfoSkipped), e.g. its
	// kernels' PTX is the baseline's; Reason says why. Neither a pass nor
	// insufficient data.
	Skipped Verdict = "skipped"
	// Accepted: a regression a maintainer accepted on the pull request
	// (/perfgate accept; Accept); Reason says who and why. It passes the
	// gate.
	Accepted Verdict = "accepted"
)

// A Result is the comparison of one benchmark. Medians are in Unit; NaN
// marks a figure that was not computed (no samples, not tested).
type Result struct {
	Suite, Name, Unit string
	Better            model.Better // the effective direction, after overrides
	Params            map[string]string

	NBaseline, NCandidate           int
	BaselineMedian, CandidateMedian float64
	// Baseline and Candidate describe each side's pooled samples (mean,
	// median, std, min, p95, p99, max); zero when a side has none.
	Baseline, Candidate stats.Summary

	Change, CILow, CIHigh float64 // fractions; positive always means worse
	PValue, PAdjusted     float64 // one-sided worse-direction p (NaN when not tested)
	// PBetter and PBetterAdjusted are the better-direction p-values, on
	// which improvements are judged (NaN when not tested).
	PBetter, PBetterAdjusted float64
	Threshold                float64 // the effective threshold for this benchmark

	Verdict     Verdict
	Reason      string // why, when the verdict needs explaining
	SummaryOnly bool   // judged on summaries: ratio of medians only
	// BelowThreshold marks an Unchanged benchmark whose change is
	// significant but smaller than the threshold: a real change, not none.
	BelowThreshold bool

	// The test across runs (zero or NaN when the benchmark was not tested).
	Rounds       int // candidate runs (rounds) with a summary
	BaselineJobs int // baseline jobs the candidate was tested against
	HistoryJobs  int // jobs the run-to-run spread was estimated from
	// RunSpread is the run-to-run spread of one run's median as a fraction
	// (a standard deviation on the log scale); SpreadKnown is false where
	// no replicates could estimate it and RunSpread is the assumed prior.
	RunSpread   float64
	SpreadKnown bool
	// Detectable is the smallest change the run-level test could call
	// significant at the level the multiple-comparison correction can
	// reach (Reach), as a fraction.
	Detectable float64
	PRun       float64 // the run-level one-sided worse p, unadjusted
	// RunLevel marks a change, CI and p-values that are the run-level
	// test's, and baseline and candidate medians that are the geometric
	// means it compares (of the baseline jobs' mean run median and of the
	// candidate's run medians); otherwise they are the pooled samples'
	// (Hodges-Lehmann, Mann-Whitney, medians).
	RunLevel bool
	// MovedAt is the commit of the newest baseline job when it is a level
	// of its own (main moved there): the candidate was judged against both
	// levels.
	MovedAt string

	// Warnings are caveats that do not change the verdict, such as a
	// *NoiseWarning.
	Warnings []error `json:"-"`
}

// Key returns the benchmark's suite and name.
func (r *Result) Key() model.Key { return model.Key{Suite: r.Suite, Name: r.Name} }

// A Summary counts the verdicts of a comparison.
type Summary struct {
	Regressions, Improvements, Warnings, Insufficient, Unchanged, Errors, Incomparable, Noisy int
	NotYet                                                                                    int // not yet gateable: a history too short
	Skipped                                                                                   int // not measured on purpose
	Accepted                                                                                  int // regressions accepted on the pull request
	// BelowThreshold counts the Unchanged benchmarks with a significant
	// change smaller than the threshold.
	BelowThreshold int
	// GeomeanChange is the geometric mean of 1 + Change over the benchmarks
	// with an estimate, minus 1; NaN when none has one.
	GeomeanChange float64
}

// A Comparison is the outcome of comparing candidate runs with baseline runs.
type Comparison struct {
	Options       Options
	Results       []Result // sorted by suite, then name
	Summary       Summary
	Candidate     model.RunRef   // the first candidate run
	CandidateRuns []model.RunRef // every candidate run, in the order given
	Baseline      []model.RunRef // the baseline runs used
	// History lists the older runs that only informed the run-to-run
	// spread (jobs beyond Options.BaselineJobs).
	History []model.RunRef
	// Incomparable lists runs passed over because their testbed differs;
	// when no run was usable, every verdict is Incomparable.
	Incomparable []model.Incomparable
	// BaselineEnv and CandidateEnv describe the machines. Where the runs of
	// one side disagree on a key, the distinct values are joined by " / ".
	BaselineEnv, CandidateEnv map[string]string
	// References are the candidate's in-run comparisons (references.go).
	References []Reference
	// Priors are the priors each benchmark's run-to-run spread was
	// moderated with: fitted across this comparison's benchmarks, or
	// Options.Priors.
	Priors Priors
}

// Failed reports whether any benchmark regressed.
func (c *Comparison) Failed() bool { return c.Summary.Regressions > 0 }

// Compare judges the candidate runs against the baseline runs. Samples of
// several runs of one side are pooled per benchmark. It fails only on
// invalid options (an *OptionError); problems with individual benchmarks
// become their verdicts.
func Compare(baseline, candidate []*model.Results, opt Options) (*Comparison, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	baseline, candidate = nonNil(baseline), nonNil(candidate)
	pooled, history := splitJobs(baseline, opt.BaselineJobs)
	c := &Comparison{
		Options:       opt,
		Baseline:      refs(pooled),
		History:       refs(history),
		CandidateRuns: refs(candidate),
		BaselineEnv:   mergeEnv(pooled),
		CandidateEnv:  mergeEnv(candidate),
	}
	if len(candidate) > 0 {
		c.Candidate = candidate[0].Run.Ref()
	}
	c.References = references(candidate)
	noBaseline := len(baseline) == 0
	// From here the runs are read through the pools only, which let go of
	// each benchmark's samples once it is judged (pool.release).
	ps := pools(baseline, candidate, opt)
	items := make([]item, len(ps))
	c.Results = make([]Result, len(ps))
	forEach(len(ps), func(i int) { items[i] = assess(ps[i], opt, noBaseline, &c.Results[i]) })
	c.Priors = fitPriors(items)
	if opt.Priors != nil {
		c.Priors = *opt.Priors
	}
	tested := 0
	for i := range items {
		if items[i].tested {
			tested++
		}
	}
	reach := Reach(opt.Correction, opt.Alpha, tested)
	forEach(len(items), func(i int) { items[i].testRuns(opt, c.Priors, reach) })
	adjust(items, opt.Correction)
	for i := range items {
		items[i].decide(opt.Alpha, tested)
	}
	c.Summary = summarize(c.Results)
	return c, nil
}

// CompareBaseline judges the candidate runs against a baseline found in a
// history store. Baseline and Incomparable come from b; when b has no runs
// because every stored run was on an incomparable testbed, every verdict is
// Incomparable, with the first reason.
func CompareBaseline(b *model.Baseline, candidate []*model.Results, opt Options) (*Comparison, error) {
	c, err := Compare(b.Runs, candidate, opt)
	if err != nil {
		return nil, err
	}
	if b.Used != nil || len(b.Runs) == 0 {
		c.Baseline, c.History = nil, nil
		ranks := jobRanks(b.Runs)
		for i, ref := range b.Used {
			if opt.BaselineJobs == 0 || ranks[i] < opt.BaselineJobs {
				c.Baseline = append(c.Baseline, ref)
			} else {
				c.History = append(c.History, ref)
			}
		}
	}
	c.Incomparable = b.Incomparable
	if len(b.Runs) == 0 && len(b.Incomparable) > 0 {
		why := fmt.Sprintf("no comparable baseline run: %d passed over (%s)", len(b.Incomparable), b.Incomparable[0].Reason)
		for i := range c.Results {
			r := &c.Results[i]
			if r.Verdict == Error {
				why += "; the candidate reported: " + r.Reason
			}
			r.Verdict, r.Reason = Incomparable, why
		}
		c.Summary = summarize(c.Results)
	}
	return c, nil
}

func nonNil(rs []*model.Results) []*model.Results {
	if !slices.Contains(rs, nil) {
		return rs
	}
	return slices.DeleteFunc(slices.Clone(rs), func(r *model.Results) bool { return r == nil })
}

// splitJobs splits baseline runs (newest first) into those of the newest k
// jobs and the older ones; k = 0 keeps every run in the baseline.
func splitJobs(rs []*model.Results, k int) (pooled, history []*model.Results) {
	if k == 0 {
		return rs, nil
	}
	for i, rank := range jobRanks(rs) {
		if rank < k {
			pooled = append(pooled, rs[i])
		} else {
			history = append(history, rs[i])
		}
	}
	return pooled, history
}

func refs(rs []*model.Results) []model.RunRef {
	out := make([]model.RunRef, len(rs))
	for i, r := range rs {
		out[i] = r.Run.Ref()
	}
	return out
}

// mergeEnv merges the environments of runs; keys on which they disagree get
// the distinct values, in run order, joined by " / ".
func mergeEnv(rs []*model.Results) map[string]string {
	vals := map[string][]string{}
	for _, r := range rs {
		for k, v := range r.Run.Env {
			if !slices.Contains(vals[k], v) {
				vals[k] = append(vals[k], v)
			}
		}
	}
	out := make(map[string]string, len(vals))
	for k, v := range vals {
		out[k] = strings.Join(v, " / ")
	}
	return out
}

// forEach calls f(i) for i in [0, n) on a bounded pool of goroutines.
func forEach(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n/64+1)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				f(i)
			}
		})
	}
	wg.Wait()
}

func summarize(rs []Result) Summary {
	var s Summary
	var logSum float64
	var n int
	for i := range rs {
		r := &rs[i]
		switch r.Verdict {
		case Regression:
			s.Regressions++
		case Improvement:
			s.Improvements++
		case Warn:
			s.Warnings++
		case Insufficient:
			s.Insufficient++
		case Unchanged:
			s.Unchanged++
			if r.BelowThreshold {
				s.BelowThreshold++
			}
		case Noisy:
			s.Noisy++
		case NotYet:
			s.NotYet++
		case Error:
			s.Errors++
		case Incomparable:
			s.Incomparable++
		case Skipped:
			s.Skipped++
		case Accepted:
			s.Accepted++
		}
		if hasEstimate(r) {
			logSum += math.Log1p(r.Change)
			n++
		}
	}
	s.GeomeanChange = math.NaN()
	if n > 0 {
		s.GeomeanChange = math.Expm1(logSum / float64(n))
	}
	return s
}

// hasEstimate reports whether r counts towards the geometric mean.
func hasEstimate(r *Result) bool {
	switch r.Verdict {
	case Error, Insufficient, Incomparable, Skipped:
		return false
	}
	return r.Change > -1 && !math.IsInf(r.Change, 0) && !math.IsNaN(r.Change)
}

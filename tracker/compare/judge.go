package compare

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/stats"
)

// An item is one benchmark on its way to a verdict.
type item struct {
	res       *Result // the comparison's entry for it
	tested    bool    // has p-values that take part in the adjustment
	pool      *pool
	decidedBy string       // a note that the verdict must carry (Reason prefix)
	spread    stats.Spread // the run-to-run spread, once tested
	levels    levels       // the baseline history's levels, once tested
	rl        runLevel     // the test across runs, once tested
	// shift is distributionShift's reason, taken while the pooled samples
	// are at hand (decide reads it for an unchanged verdict).
	shift string
}

// assess computes everything about one benchmark that does not depend on
// the other benchmarks, into res. Verdicts that need no p-value are final
// here.
func assess(p *pool, opt Options, noBaseline bool, res *Result) item {
	p.resolve(opt.SortInPlace)
	defer p.release()
	set := opt.settingsFor(p.key.String(), p.better)
	nan := math.NaN()
	*res = Result{
		Suite: p.key.Suite, Name: p.key.Name, Unit: p.unit, Better: set.better, Params: p.params,
		NBaseline: len(p.base.samples), NCandidate: len(p.cand.samples),
		BaselineMedian: median(p.base.samples), CandidateMedian: median(p.cand.samples),
		Baseline: stats.Describe(p.base.samples), Candidate: stats.Describe(p.cand.samples),
		Change: nan, CILow: nan, CIHigh: nan, PValue: nan, PAdjusted: nan, PBetter: nan, PBetterAdjusted: nan,
		RunSpread: nan, Detectable: nan, PRun: nan,
		Threshold: set.threshold, SummaryOnly: p.base.summaryOnly || p.cand.summaryOnly,
	}
	it := item{pool: p, res: res}
	r := it.res
	if w := p.noise; w != nil {
		r.Warnings = append(r.Warnings, w)
	}
	switch {
	case p.cand.skipped != "" && len(p.cand.errors) == 0 && len(p.cand.segments) == 0:
		r.Verdict, r.Reason = Skipped, p.cand.skipped
	case len(p.cand.errors) > 0:
		r.Verdict, r.Reason = Error, strings.Join(p.cand.errors, "; ")
	case !p.cand.present:
		r.Verdict, r.Reason = Error, "in the baseline but missing from the candidate"
	case p.unitErr != "":
		r.Verdict, r.Reason = Error, p.unitErr
	case p.otherSeries != "" && r.NBaseline == 0:
		r.Verdict = Insufficient
		r.Reason = fmt.Sprintf("a new series: no baseline run in %s yet (the earlier runs are in %s, kept for trend)", p.unit, p.otherSeries)
	case p.cand.present && p.base.present && p.otherSeries == "" && p.baseBetter != p.better && !set.betterPinned:
		r.Verdict = Error
		r.Reason = fmt.Sprintf("the baseline says %s is better, the candidate %s: fix the producer, or pin better in an override", p.baseBetter, p.better)
	case r.NBaseline == 0 || r.NCandidate == 0 || (!r.SummaryOnly && min(r.NBaseline, r.NCandidate) < opt.MinSamples):
		r.Verdict, r.Reason = Insufficient, insufficientReason(p, opt.MinSamples, noBaseline)
	case r.SummaryOnly:
		r.Change = changeOf(r.CandidateMedian/r.BaselineMedian, set.better)
		r.Verdict, r.Reason = Unchanged, "no raw samples: ratio only"
		if math.Abs(r.Change) > set.threshold {
			r.Verdict = Warn
		}
	default:
		it.test(opt)
	}
	return it
}

func insufficientReason(p *pool, minSamples int, noBaseline bool) string {
	switch {
	case noBaseline:
		return "no baseline run"
	case !p.base.present:
		return "new benchmark: not in the baseline"
	case len(p.base.samples) == 0 && len(p.base.errors) > 0:
		return "no baseline samples: the baseline reported: " + strings.Join(p.base.errors, "; ")
	case len(p.cand.samples) == 0:
		return "no candidate samples"
	}
	var short []string
	if n := len(p.base.samples); n < minSamples {
		short = append(short, fmt.Sprintf("%d baseline", n))
	}
	if n := len(p.cand.samples); n < minSamples {
		short = append(short, fmt.Sprintf("%d candidate", n))
	}
	return fmt.Sprintf("only %s samples; at least %d per side needed", strings.Join(short, " and "), minSamples)
}

// test runs both one-sided tests within runs and the Hodges-Lehmann
// estimate, and estimates the run-to-run spread for the test across runs
// (testRuns), which both p-values and the CI must also pass.
func (it *item) test(opt Options) {
	ciLevel := opt.CILevel()
	r, base, cand := it.res, it.pool.base.samples, it.pool.cand.samples
	tails, err := stats.MannWhitneyTails(cand, base)
	r.PValue, r.PBetter = tails.Greater, tails.Less // the candidate tends larger: slower
	if r.Better == model.Higher {
		r.PValue, r.PBetter = tails.Less, tails.Greater
	}
	if err != nil {
		r.Verdict, r.Reason = Error, err.Error()
		return
	}
	it.tested = true
	est, lo, hi, err := stats.HodgesLehmannRatio(base, cand, ciLevel)
	switch {
	case errors.Is(err, stats.ErrNonPositive):
		r.Change = changeOf(r.CandidateMedian/r.BaselineMedian, r.Better)
		it.decidedBy = "samples ≤ 0: change is the ratio of medians, no CI"
	case err != nil:
		r.Verdict, r.Reason, it.tested = Error, err.Error(), false
	default:
		r.Change = changeOf(est, r.Better)
		r.CILow, r.CIHigh = changeOf(lo, r.Better), changeOf(hi, r.Better)
		if r.CILow > r.CIHigh {
			r.CILow, r.CIHigh = r.CIHigh, r.CILow
		}
	}
	if it.tested {
		it.estimateSpread()
		it.shift = it.distributionShift(opt.Alpha)
	}
}

// testRuns runs the test across runs once every benchmark's spread is known
// (pr are the priors fitted to them) and folds it into the result; reach is
// the smallest raw p-value the correction can let pass (Reach).
func (it *item) testRuns(opt Options, pr Priors, reach float64) {
	if !it.tested {
		return
	}
	it.rl = it.runLevelTest(opt, pr)
	it.rl.apply(it.res, opt.Alpha, opt.jobPrior(), reach)
}

// changeOf turns a candidate/baseline ratio into a change where positive
// means worse: ratio − 1 for lower-is-better, 1/ratio − 1 for
// higher-is-better (the equivalent change in time per unit of work). A ratio
// that is not a positive finite number gives NaN.
func changeOf(ratio float64, better model.Better) float64 {
	if !(ratio > 0) || math.IsInf(ratio, 0) {
		return math.NaN()
	}
	if better == model.Higher {
		return 1/ratio - 1
	}
	return ratio - 1
}

// adjust replaces the p-values of the tested items by adjusted ones: the
// worse-direction p-values are adjusted as one family, the better-direction
// ones as another.
func adjust(items []item, correction string) {
	var idx []int
	var pw, pb []float64
	for i := range items {
		if items[i].tested {
			idx = append(idx, i)
			pw = append(pw, items[i].res.PValue)
			pb = append(pb, items[i].res.PBetter)
		}
	}
	switch correction {
	case CorrectionBH:
		pw, pb = stats.AdjustBH(pw), stats.AdjustBH(pb)
	case CorrectionHolm:
		pw, pb = stats.AdjustHolm(pw), stats.AdjustHolm(pb)
	}
	for j, i := range idx {
		items[i].res.PAdjusted, items[i].res.PBetterAdjusted = pw[j], pb[j]
	}
}

// median returns the median of sorted x, or NaN when x is empty.
func median(x []float64) float64 {
	n := len(x)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return x[n/2]
	}
	return (x[n/2-1] + x[n/2]) / 2
}

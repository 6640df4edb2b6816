package compare

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/stats"
)

// Evidence is what a tested benchmark's verdict is decided on.
type Evidence struct {
	Change, CILow, CIHigh float64 // fractions, positive means worse; CI may be NaN
	PWorse, PBetter       float64 // adjusted one-sided p-values
	// Detectable is the smallest change the test across runs could call
	// significant at the level the correction can reach, and RunLow/RunHigh
	// that test's one-sided bounds of the change (fractions; NaN where
	// runs were not tested).
	Detectable, RunLow, RunHigh float64
	// RawWorse and RawBetter are the one-sided p-values before the
	// adjustment (NaN: not known, as good as not significant).
	RawWorse, RawBetter float64
	// Jobs is how many baseline jobs measured the spread between runs (0:
	// not measured); below MinGateJobs what cannot be decided is NotYet.
	Jobs int
}

// MinGateJobs is how many jobs of history a benchmark needs before the
// gate calls it Noisy: with fewer, a spread too wide to judge may be the
// short history's, and the verdict is NotYet.
const MinGateJobs = 5

// atThreshold is how far past the threshold, on the log scale, a change
// must lie to count as beyond it: a change of exactly the threshold is
// judged the same at every scale, whatever the rounding of its ratio.
const atThreshold = 1e-9

// Decide applies the verdict rules of the package documentation to a tested
// benchmark. Changes are compared with the threshold on the log scale:
// log(1+change) against log(1+threshold), and log(1−threshold) for
// improvements. why explains a Warn ("not significant", "CI reaches past
// +10%", …) and is empty otherwise.
//
// Warn is kept for evidence that points past the threshold: an estimate
// beyond it that is not significant, or a change significant before the
// adjustment whose confidence interval reaches past it. A benchmark whose
// interval reaches past the threshold with no such evidence is Noisy when
// the spread between runs hides a change of the threshold's size (NotYet
// with fewer than MinGateJobs jobs of history) and Unchanged otherwise.
func Decide(e Evidence, threshold, alpha float64) (v Verdict, why string) {
	t := threshold
	up, down := math.Log1p(t)+atThreshold, math.Log1p(-t)-atThreshold
	lc := math.Log1p(e.Change)
	noisy := math.Log1p(e.Detectable) >= up-2*atThreshold // false for NaN
	undecided := Noisy
	short := e.Jobs > 0 && e.Jobs < MinGateJobs
	if short {
		undecided = NotYet
	}
	reaches := math.Log1p(e.CIHigh) > up || math.Log1p(e.CILow) < down
	switch {
	case math.IsNaN(e.Change):
		if e.PWorse < alpha || e.PBetter < alpha {
			return Warn, "significant shift, but no ratio to size it"
		}
		return Unchanged, ""
	case e.PWorse < alpha && lc > up:
		// Where the run-level test could not detect a threshold-sized
		// change even at alpha (its one-sided bound lies further from the
		// estimate than the threshold from 0), or the history is short (a
		// few jobs may agree by luck: all in one of a bimodal benchmark's
		// modes), the bound itself must clear the threshold.
		if (short || lc-math.Log1p(e.RunLow) >= up) && !(math.Log1p(e.RunLow) > up) {
			return undecided, ""
		}
		return Regression, ""
	case e.PBetter < alpha && lc < down:
		if (short || math.Log1p(e.RunHigh)-lc >= -down) && !(math.Log1p(e.RunHigh) < down) {
			return undecided, ""
		}
		return Improvement, ""
	case reaches && noisy:
		return undecided, ""
	case lc > up || lc < down:
		return Warn, fmt.Sprintf("%s beyond the threshold but not significant", pct(e.Change))
	case math.Log1p(e.CIHigh) > up && e.RawWorse < alpha:
		return Warn, "slower before the adjustment, and the CI reaches past " + pct(t)
	case math.Log1p(e.CILow) < down && e.RawBetter < alpha:
		return Warn, "faster before the adjustment, and the CI reaches past " + pct(-t)
	}
	return Unchanged, ""
}

// decide sets the verdict of a tested item from its adjusted p-values;
// tested is how many benchmarks the adjustment spanned.
func (it *item) decide(alpha float64, tested int) {
	if !it.tested {
		return
	}
	r := it.res
	nan := math.NaN()
	e := Evidence{r.Change, r.CILow, r.CIHigh, r.PAdjusted, r.PBetterAdjusted, r.Detectable, nan, nan, r.PValue, r.PBetter, 0}
	if r.SpreadKnown {
		e.RunLow, e.RunHigh = math.Expm1(it.rl.low), math.Expm1(it.rl.high)
		e.Jobs = r.HistoryJobs
	}
	v, why := Decide(e, r.Threshold, alpha)
	r.Verdict, r.Reason = v, it.decidedBy
	moved := false
	if it.rl.prev != nil {
		v0 := v
		v, why = it.bothLevels(v, why, alpha)
		r.Verdict, moved = v, v != v0
	}
	switch v {
	case Noisy:
		r.Reason = join(r.Reason, it.noisyReason())
	case NotYet:
		r.Reason = join(r.Reason, it.notYetReason())
	case Warn:
		if !moved {
			why += "; " + it.moreSamples(alpha, tested)
		}
		r.Reason = join(r.Reason, why)
	case Unchanged:
		if it.shift != "" {
			r.Verdict, r.Reason = Warn, join(r.Reason, it.shift)
			break
		}
		r.BelowThreshold = r.PAdjusted < alpha || r.PBetterAdjusted < alpha
	}
}

// bothLevels applies the rule for a baseline whose newest job is a level
// of its own (main moved there): the candidate was judged against that job
// (v), and is a regression or an improvement only if it is one against
// the level before too; otherwise it is a Warn that says so. Either way the
// reason names the commit where main moved.
func (it *item) bothLevels(v Verdict, why string, alpha float64) (Verdict, string) {
	r, prev := it.res, it.rl.prev
	r.MovedAt = it.pool.runs.newestCommit()
	pw, pb := prev.test.Greater, prev.test.Less
	if r.Better == model.Higher {
		pw, pb = pb, pw
	}
	scale := 1.0 // this benchmark's adjustment, applied to the other level's p
	if r.PValue > 0 && r.PAdjusted > r.PValue {
		scale = r.PAdjusted / r.PValue
	}
	t := math.Log1p(r.Threshold) + atThreshold
	other := pct(math.Expm1(prev.worse))
	note := fmt.Sprintf("main moved at %s: %s against its newest job, %s against the %d jobs before", shortSHA(r.MovedAt), pct(r.Change), other, prev.base)
	switch {
	case v == Regression && !(min(1, pw*scale) < alpha && prev.worse > t):
		return Warn, note + ": a regression against the newest job only"
	case v == Improvement && !(min(1, pb*scale) < alpha && prev.worse < -t):
		return Warn, note + ": an improvement against the newest job only"
	}
	r.Reason = join(r.Reason, note)
	return v, why
}

// shortSHA shortens a commit hash for a reason ("" stays "").
func shortSHA(s string) string {
	if len(s) > 7 {
		return s[:7]
	}
	return s
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// noisyReason says how far the runs move and what the test could detect.
func (it *item) noisyReason() string {
	r := it.res
	return fmt.Sprintf("runs move ±%s between processes (over %d jobs): only changes beyond %s are detectable",
		pctAbs(r.RunSpread), r.HistoryJobs, pct(r.Detectable)) + it.pool.cand.drawNote()
}

// drawNote says, for a benchmark measured in several CUDA contexts per run,
// how many and how far apart their levels were: the part of the spread
// between processes that each run already averages over.
func (s *side) drawNote() string {
	if s.draws < 2 || len(s.drawSpreads) == 0 {
		return ""
	}
	spreads := slices.Clone(s.drawSpreads)
	slices.Sort(spreads)
	return fmt.Sprintf("; each run pooled %d CUDA contexts, whose levels were ±%.1f%% apart (median over its runs)",
		s.draws, median(spreads))
}

// notYetReason says why a benchmark with a short history cannot be gated
// yet.
func (it *item) notYetReason() string {
	r := it.res
	return fmt.Sprintf("not yet gateable: %d jobs of history, runs move ±%s between processes and only changes beyond %s are detectable; from %d jobs the spread is measured well enough to judge it",
		r.HistoryJobs, pctAbs(r.RunSpread), pct(r.Detectable), MinGateJobs)
}

// pctAbs formats a non-negative fraction as a percentage without a sign.
func pctAbs(f float64) string { return strings.TrimPrefix(pct(f), "+") }

// moreSamples says what would settle an inconclusive benchmark. Where the
// spread between runs dominates the uncertainty, more runs would (rounds or
// history), not more samples. Otherwise it estimates how many more samples
// per side would: when the estimate is beyond the threshold the question is
// whether the change is real, at the significance level the adjustment left
// this benchmark; otherwise it is on which side of the threshold the change
// lies, at alpha. When the sample counts cannot reach significance after
// the adjustment over tested benchmarks at all, it says so.
func (it *item) moreSamples(alpha float64, tested int) string {
	r := it.res
	c := math.Abs(r.Change)
	if math.IsNaN(c) {
		return "more samples would size it"
	}
	adj := r.PAdjusted
	if r.Change < 0 {
		adj = r.PBetterAdjusted
	}
	if floor := minReachableP(r.NBaseline, r.NCandidate); !(adj < alpha) && floor*float64(tested) >= alpha {
		return fmt.Sprintf("with %d and %d samples the smallest p the test can reach is %.2g, and adjusted over %d benchmarks that cannot reach α=%g unless most of them change: take more samples per run (or raise %s)", r.NBaseline, r.NCandidate, floor, tested, alpha, model.Flag("min-samples"))
	}
	if it.runsDominate() {
		return fmt.Sprintf("runs move ±%s between processes: more rounds (%s) or more baseline jobs would decide it, not more samples", pctAbs(r.RunSpread), model.Flag("rounds"))
	}
	effect, a := r.Threshold-c, alpha
	if c > r.Threshold {
		effect = c
		raw, adj := r.PValue, r.PAdjusted
		if r.Change < 0 {
			raw, adj = r.PBetter, r.PBetterAdjusted
		}
		if adj > 0 && raw < adj {
			a = alpha * raw / adj
		}
	}
	if effect < 0.001 {
		return "the estimate sits on the threshold: more samples would hardly decide it"
	}
	need := stats.RequiredN(effect, pooledCV(r.Baseline, r.Candidate), a, 0.8)
	more := need - min(r.NBaseline, r.NCandidate)
	if more < 1 {
		return "n looks sufficient for this spread: check for outliers or bimodal timings"
	}
	return fmt.Sprintf("about %d more samples per side would decide it", more)
}

// runsDominate reports whether the run-level test, not the samples within
// runs, set the worse-direction p-value.
func (it *item) runsDominate() bool {
	r := it.res
	return r.SpreadKnown && r.PRun >= r.PValue
}

// minReachableP is the smallest one-sided p-value the exact Mann-Whitney
// test can give with n and m samples: 1/C(n+m, n), complete separation.
func minReachableP(n, m int) float64 {
	if n == 0 || m == 0 {
		return 1
	}
	lg := func(k int) float64 { v, _ := math.Lgamma(float64(k) + 1); return v }
	return math.Exp(lg(n) + lg(m) - lg(n+m))
}

// pooledCV returns the root mean square of the two sides' robust relative
// spreads (1.4826·MAD/median), falling back to std/mean where the MAD is 0,
// from their descriptions (stats.Describe of the pooled samples).
func pooledCV(base, cand stats.Summary) float64 {
	cv := func(s stats.Summary) float64 {
		if s.MAD > 0 && s.Median != 0 {
			return 1.4826 * s.MAD / math.Abs(s.Median)
		}
		return math.Abs(s.CV)
	}
	a, b := cv(base), cv(cand)
	return math.Sqrt((a*a + b*b) / 2)
}

// pct formats a fraction as a signed percentage, such as "+10%" or "-3.5%".
func pct(f float64) string {
	s := fmt.Sprintf("%+.1f%%", 100*f)
	if len(s) > 3 && s[len(s)-3:] == ".0%" {
		s = s[:len(s)-3] + "%"
	}
	return s
}

package compare

import (
	"fmt"
	"math"
	"strings"

	"github.com/perfgate/perfgate/tracker/stats"
)

// Evidence is what a tested benchmark's verdict is decided on.
type Evidence struct {
	Change, CILow, CIHigh float64 // fractions, positive means worse; CI may be NaN
	PWorse, PBetter       float64 // adjusted one-sided p-values
	// Detectable is the smallest change the test across runs could call
	// significant, and RunLow/RunHigh that test's one-sided bounds of the
	// change (fractions; NaN where runs were not tested).
	Detectable, RunLow, RunHigh float64
}

// atThreshold is how far past the threshold, on the log scale, a change
// must lie to count as beyond it: a change of exactly the threshold is
// judged the same at every scale, whatever the rounding of its ratio.
const atThreshold = 1e-9

// Decide applies the verdict rules of the package documentation to a tested
// benchmark. Changes are compared with the threshold on the log scale:
// log(1+change) against log(1+threshold), and log(1−threshold) for
// improvements. why explains a Warn ("not significant", "CI reaches past
// +10%", …) and is empty otherwise.
func Decide(e Evidence, threshold, alpha float64) (v Verdict, why string) {
	t := threshold
	up, down := math.Log1p(t)+atThreshold, math.Log1p(-t)-atThreshold
	lc := math.Log1p(e.Change)
	noisy := math.Log1p(e.Detectable) >= up-2*atThreshold // false for NaN
	switch {
	case math.IsNaN(e.Change):
		if e.PWorse < alpha || e.PBetter < alpha {
			return Warn, "significant shift, but no ratio to size it"
		}
		return Unchanged, ""
	case e.PWorse < alpha && lc > up:
		if noisy && !(math.Log1p(e.RunLow) > up) {
			return Noisy, ""
		}
		return Regression, ""
	case e.PBetter < alpha && lc < down:
		if noisy && !(math.Log1p(e.RunHigh) < down) {
			return Noisy, ""
		}
		return Improvement, ""
	case noisy:
		return Noisy, ""
	case lc > up || lc < down:
		return Warn, fmt.Sprintf("%s beyond the threshold but not significant", pct(e.Change))
	case math.Log1p(e.CIHigh) > up:
		return Warn, "CI reaches past " + pct(t)
	case math.Log1p(e.CILow) < down:
		return Warn, "CI reaches past " + pct(-t)
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
	e := Evidence{r.Change, r.CILow, r.CIHigh, r.PAdjusted, r.PBetterAdjusted, r.Detectable, nan, nan}
	if r.SpreadKnown {
		e.RunLow, e.RunHigh = math.Expm1(it.rl.low), math.Expm1(it.rl.high)
	}
	v, why := Decide(e, r.Threshold, alpha)
	r.Verdict, r.Reason = v, it.decidedBy
	switch v {
	case Noisy:
		r.Reason = join(r.Reason, it.noisyReason())
	case Warn:
		why += "; " + it.moreSamples(alpha, tested)
		r.Reason = join(r.Reason, why)
	case Unchanged:
		if it.shift != "" {
			r.Verdict, r.Reason = Warn, join(r.Reason, it.shift)
			break
		}
		r.BelowThreshold = r.PAdjusted < alpha || r.PBetterAdjusted < alpha
	}
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
	return fmt.Sprintf("runs move ±%s between processes (over %d jobs): only changes beyond %s are detectable; add rounds (--rounds) or history to judge it",
		pctAbs(r.RunSpread), r.HistoryJobs, pct(r.Detectable))
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
		return fmt.Sprintf("with %d and %d samples the smallest p the test can reach is %.2g, and adjusted over %d benchmarks that cannot reach α=%g unless most of them change: take more samples per run (or raise --min-samples)",
			r.NBaseline, r.NCandidate, floor, tested, alpha)
	}
	if it.runsDominate() {
		return fmt.Sprintf("runs move ±%s between processes: more rounds (--rounds) or more baseline jobs would decide it, not more samples", pctAbs(r.RunSpread))
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
// runs, set the width of the confidence interval.
func (it *item) runsDominate() bool {
	rl, r := it.rl, it.res
	return r.SpreadKnown && rl.high-rl.low >= 0.5*(math.Log1p(r.CIHigh)-math.Log1p(r.CILow))
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

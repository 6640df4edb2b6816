package compare

import (
	"fmt"
	"math"

	"github.com/perfgate/perfgate/tracker/stats"
)

// Evidence is what a tested benchmark's verdict is decided on.
type Evidence struct {
	Change, CILow, CIHigh float64 // fractions, positive means worse; CI may be NaN
	PWorse, PBetter       float64 // adjusted one-sided p-values
}

// Decide applies the verdict rules of the package documentation to a tested
// benchmark. why explains a Warn ("not significant", "CI reaches past
// +10%", …) and is empty otherwise.
func Decide(e Evidence, threshold, alpha float64) (v Verdict, why string) {
	t := threshold
	switch {
	case math.IsNaN(e.Change):
		if e.PWorse < alpha || e.PBetter < alpha {
			return Warn, "significant shift, but no ratio to size it"
		}
		return Unchanged, ""
	case e.PWorse < alpha && e.Change > t:
		return Regression, ""
	case e.PBetter < alpha && e.Change < -t:
		return Improvement, ""
	case math.Abs(e.Change) > t:
		return Warn, fmt.Sprintf("%s beyond the threshold but not significant", pct(e.Change))
	case e.CIHigh > t:
		return Warn, "CI reaches past " + pct(t)
	case e.CILow < -t:
		return Warn, "CI reaches past " + pct(-t)
	}
	return Unchanged, ""
}

// decide sets the verdict of a tested item from its adjusted p-values.
func (it *item) decide(alpha float64) {
	if !it.tested {
		return
	}
	r := &it.res
	v, why := Decide(Evidence{r.Change, r.CILow, r.CIHigh, r.PAdjusted, r.PBetterAdjusted}, r.Threshold, alpha)
	r.Verdict, r.Reason = v, it.decidedBy
	if v == Warn {
		why += "; " + it.moreSamples(alpha)
		if r.Reason != "" {
			why = r.Reason + "; " + why
		}
		r.Reason = why
	}
}

// moreSamples estimates how many more samples per side would settle an
// inconclusive benchmark. When the estimate is beyond the threshold the
// question is whether the change is real, at the significance level the
// adjustment left this benchmark; otherwise it is on which side of the
// threshold the change lies, at alpha.
func (it *item) moreSamples(alpha float64) string {
	r := &it.res
	c := math.Abs(r.Change)
	if math.IsNaN(c) {
		return "more samples would size it"
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
	need := stats.RequiredN(effect, pooledCV(it.pool.base.samples, it.pool.cand.samples), a, 0.8)
	more := need - min(r.NBaseline, r.NCandidate)
	if more < 1 {
		return "n looks sufficient for this spread: check for outliers or bimodal timings"
	}
	return fmt.Sprintf("about %d more samples per side would decide it", more)
}

// pooledCV returns the root mean square of the two sides' robust relative
// spreads (1.4826·MAD/median), falling back to std/mean where the MAD is 0.
func pooledCV(base, cand []float64) float64 {
	cv := func(x []float64) float64 {
		s := stats.Describe(x)
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

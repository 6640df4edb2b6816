package compare

import (
	"fmt"
	"math"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/stats"
	"gonum.org/v1/gonum/stat/distuv"
)

// shiftQuantiles are the quantiles, on the slow side, whose shift
// distributionShift looks for, largest first.
var shiftQuantiles = []float64{0.9, 0.75, 0.5}

// distributionShift looks for a change in the slow half of the distribution
// that the Hodges-Lehmann estimate does not show: a bimodal benchmark whose
// slow mode became more frequent moves its median or p75/p90 while most
// pairwise ratios, and so the estimate, stay near 1. It reports a reason
// when, for some slow-side quantile q (p90, p75, the median; p10, p25 for
// higher-is-better units), the candidate's q-quantile is beyond the
// threshold from the baseline's and the share of candidate samples beyond
// the baseline's q-quantile is significantly above the expected 1 − q
// (one-sided binomial test at alpha); "" otherwise.
func (it *item) distributionShift(alpha float64) string {
	r := it.res
	base, cand := it.pool.base.samples, it.pool.cand.samples
	if len(base) < 10 || len(cand) < 10 {
		return ""
	}
	for _, q := range shiftQuantiles {
		at, beyond := q, func(x, ref float64) bool { return x > ref }
		if r.Better == model.Higher {
			at, beyond = 1-q, func(x, ref float64) bool { return x < ref }
		}
		bq, cq := stats.Quantile(base, at), stats.Quantile(cand, at)
		change := changeOf(cq/bq, r.Better)
		if !(math.Log1p(change) > math.Log1p(r.Threshold)+atThreshold) {
			continue
		}
		k := 0
		for _, v := range cand {
			if beyond(v, bq) {
				k++
			}
		}
		n := len(cand)
		p := distuv.Binomial{N: float64(n), P: 1 - q}.Survival(float64(k) - 1)
		if !(p < alpha) {
			continue
		}
		name := quantileName(at)
		return fmt.Sprintf("the distribution shifted: %s %s while the estimate is %s; %.0f%% of candidate samples lie beyond the baseline's %s (%.0f%% expected): a slow mode became more frequent",
			name, pct(change), pct(r.Change), 100*float64(k)/float64(n), name, 100*(1-q))
	}
	return ""
}

// quantileName names a quantile as reports do: "median", "p90".
func quantileName(q float64) string {
	if q == 0.5 {
		return "median"
	}
	return fmt.Sprintf("p%.0f", 100*q)
}

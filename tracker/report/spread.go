package report

import (
	"fmt"
	"math"

	"github.com/perfgate/perfgate/tracker/compare"
)

// verdictWords is how reports name a benchmark's verdict: an unchanged
// benchmark whose change is significant but below the threshold is "smaller
// than the threshold", so nobody reads a certain +9% as no change.
func verdictWords(r *compare.Result) string {
	if r.Verdict == compare.Unchanged && r.BelowThreshold {
		return "smaller than the threshold"
	}
	return string(r.Verdict)
}

// spread formats a benchmark's run-to-run spread: "±2.1% (9 jobs)", "±3%
// assumed" where no replicates measured it, "—" where it was not tested.
func spread(r *compare.Result) string {
	switch {
	case math.IsNaN(r.RunSpread):
		return "—"
	case !r.SpreadKnown:
		return "±" + pctAbs(r.RunSpread) + " assumed"
	}
	return fmt.Sprintf("±%s (%d jobs)", pctAbs(r.RunSpread), r.HistoryJobs)
}

// pctAbs formats a non-negative fraction as a percentage without a sign.
func pctAbs(f float64) string {
	s := pct(f)
	if s != "" && s[0] == '+' {
		return s[1:]
	}
	return s
}

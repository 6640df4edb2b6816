package report

import (
	"io"
	"strconv"

	"github.com/perfgate/perfgate/internal/safetext"
	"github.com/perfgate/perfgate/tracker/compare"
)

// CSV writes one row per benchmark of the comparison, with the fields of
// the JSON report (threshold_pct in percent, changes as fractions, positive change is worse; empty for NaN).
// User text is defused (safetext.Cell: a formula gets a leading
// apostrophe) and quoted where it holds a separator of any dialect.
func CSV(w io.Writer, c *compare.Comparison) error {
	cw := safetext.NewWriter(w)
	cw.Write([]string{"suite", "name", "unit", "better", "verdict", "baseline_median", "candidate_median", "change",
		"ci_low", "ci_high", "p_value", "p_adjusted", "n_baseline", "n_candidate", "threshold_pct", "reason"})
	for _, r := range c.Results {
		cw.Write([]string{cell(r.Suite), cell(r.Name), cell(r.Unit), string(r.Better), string(r.Verdict),
			csvNum(r.BaselineMedian), csvNum(r.CandidateMedian), csvNum(r.Change), csvNum(r.CILow), csvNum(r.CIHigh),
			csvNum(r.PValue), csvNum(r.PAdjusted), strconv.Itoa(r.NBaseline), strconv.Itoa(r.NCandidate),
			csvNum(float64(percent(r.Threshold))), cell(plain(r.Reason))})
	}
	cw.Flush()
	return cw.Error()
}

// cell defuses spreadsheet formulas in user text.
func cell(s string) string { return safetext.Cell(s) }

func csvNum(v float64) string {
	if !finite(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

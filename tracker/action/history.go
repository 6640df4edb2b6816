package action

import (
	"context"
	"fmt"
	"slices"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/report"
)

// historyPoints is how many baseline runs a report chart shows before the
// candidate.
const historyPoints = 20

// ReportHistory reads the latest historyPoints medians on branch, on the
// candidate's testbed, of the changed benchmarks of c (the ones the report
// may chart), one query per suite.
func ReportHistory(ctx context.Context, src history.TrendSource, c *compare.Comparison, branch string) (report.Histories, error) {
	want := map[string]bool{}
	var suites []string
	// The report's order: regressions, warnings, improvements, noisy.
	for _, v := range []compare.Verdict{compare.Regression, compare.Accepted, compare.Warn, compare.Improvement, compare.Noisy} {
		for _, r := range c.Results {
			if r.Verdict != v || len(want) == report.MaxCharts+report.MaxSparklines {
				continue
			}
			want[r.Suite+"/"+r.Name] = true
			if !slices.Contains(suites, r.Suite) {
				suites = append(suites, r.Suite)
			}
		}
	}
	h := report.Histories{}
	for _, s := range suites {
		series, err := src.Trend(ctx, model.TrendQuery{Suite: s, Branch: branch, Testbed: c.Candidate.Testbed})
		if err != nil {
			return nil, fmt.Errorf("the history of suite %q: %w", s, err)
		}
		for _, se := range series {
			key := se.Suite + "/" + se.Name
			if !want[key] {
				continue
			}
			pts := se.Points[max(0, len(se.Points)-historyPoints):]
			hist := report.History{Unit: se.Unit}
			for _, p := range pts {
				hist.Points = append(hist.Points, report.HistoryPoint{Commit: p.Run.Commit, Median: p.Median})
			}
			if old, ok := h[key]; !ok || len(old.Points) < len(hist.Points) {
				h[key] = hist // of two units, the longer record
			}
		}
	}
	return h, nil
}

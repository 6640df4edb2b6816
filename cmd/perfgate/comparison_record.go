package main

import (
	"context"
	"fmt"
	"math"

	"github.com/perfgate/perfgate/db"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
)

// A comparisonRecorder keeps the comparisons a check made: the Postgres
// store does, the embedded store does not.
type comparisonRecorder interface {
	RecordComparison(ctx context.Context, c *model.ComparisonRecord) (int64, error)
}

var _ comparisonRecorder = (*db.Store)(nil)

// saveComparison stores c when st keeps comparisons. The verdict is already
// decided, so a failure here is a warning, not a reason to fail the check.
func saveComparison(ctx context.Context, e *env, st history.Store, c *compare.Comparison) {
	cr, ok := st.(comparisonRecorder)
	if !ok {
		return
	}
	if _, err := cr.RecordComparison(ctx, comparisonRecord(c)); err != nil {
		fmt.Fprintf(e.Stderr, "perfgate: warning: the comparison was not stored: %v\n", err)
	}
}

// comparisonRecord turns a comparison into the record a store keeps.
func comparisonRecord(c *compare.Comparison) *model.ComparisonRecord {
	s := c.Summary
	rec := &model.ComparisonRecord{
		Candidate: c.Candidate, Baseline: c.Baseline,
		Threshold: c.Options.Threshold, Alpha: c.Options.Alpha, Correction: c.Options.Correction,
		Failed: c.Failed(),
		Summary: map[string]any{"regressions": s.Regressions, "improvements": s.Improvements,
			"warnings": s.Warnings, "insufficient": s.Insufficient, "unchanged": s.Unchanged,
			"errors": s.Errors, "incomparable": s.Incomparable, "noisy": s.Noisy, "below_threshold": s.BelowThreshold},
	}
	if !math.IsNaN(s.GeomeanChange) && !math.IsInf(s.GeomeanChange, 0) {
		rec.Summary["geomean_change"] = s.GeomeanChange
	}
	for _, r := range c.Results {
		rec.Results = append(rec.Results, model.VerdictRecord{
			Suite: r.Suite, Name: r.Name, Unit: r.Unit, Better: r.Better, Verdict: string(r.Verdict),
			NBaseline: r.NBaseline, NCandidate: r.NCandidate,
			BaselineMedian: r.BaselineMedian, CandidateMedian: r.CandidateMedian,
			Change: r.Change, CILow: r.CILow, CIHigh: r.CIHigh, PValue: r.PValue, PAdjusted: r.PAdjusted,
			Threshold: r.Threshold, Reason: r.Reason,
		})
	}
	return rec
}

package check

import (
	"context"
	"fmt"
	"io"
	"math"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// RecordRuns records runs in order, writing one line each to w (names
// holds each run's file name, for messages). It stops at the first
// failure, saying how many runs were stored before it.
func RecordRuns(ctx context.Context, w io.Writer, st history.Recorder, names []string, runs []*model.Results) error {
	return recordEach(w, names, len(runs), func(i int) (model.RecordOutcome, *model.Run, error) {
		out, err := st.Record(ctx, runs[i])
		return out, &runs[i].Run, err
	})
}

// RecordSources is RecordRuns for runs read a benchmark at a time
// (resultsjson.OpenAll), so that their samples are never held whole.
func RecordSources(ctx context.Context, w io.Writer, st history.SourceRecorder, names []string, srcs []*resultsjson.Source) error {
	return recordEach(w, names, len(srcs), func(i int) (model.RecordOutcome, *model.Run, error) {
		out, err := st.RecordSource(ctx, srcs[i])
		return out, &srcs[i].Run, err
	})
}

// recordEach records n runs with record, in order, and says what became of
// each.
func recordEach(w io.Writer, names []string, n int, record func(i int) (model.RecordOutcome, *model.Run, error)) error {
	for i := range n {
		out, run, err := record(i)
		if err != nil {
			if i > 0 {
				return fmt.Errorf("%s: %w (the %d run(s) before it are stored)", names[i], err, i)
			}
			return fmt.Errorf("%s: %w", names[i], err)
		}
		what := "recorded"
		if out == model.Duplicate {
			what = "already recorded"
		}
		fmt.Fprintf(w, "%s: %s %s\n", names[i], what, DescribeRun(run))
	}
	return nil
}

// DescribeRun says which run this is, and whether it can be a baseline.
func DescribeRun(r *model.Run) string {
	s := fmt.Sprintf("run %s (repo %s, branch %s, sha %s, %s, testbed %s, started_at %s)", r.ID, r.Repo, r.Branch, model.ShortSHA(r.Commit), r.Event,
		r.Testbed, r.StartedAt.UTC().Format("2006-01-02T15:04:05Z07:00"))
	switch {
	case r.PR != 0:
		s += fmt.Sprintf(" — pull request #%d: kept for the record, never a baseline", r.PR)
	case r.Event == model.EventPullRequest:
		s += " — pull-request run: kept for the record, never a baseline"
	}
	return s
}

// A ComparisonRecorder keeps the comparisons a check made: the Postgres
// store does, the embedded store does not.
type ComparisonRecorder interface {
	RecordComparison(ctx context.Context, c *model.ComparisonRecord) (int64, error)
}

// SaveComparison stores c when st keeps comparisons; saved is false when
// it does not. The verdict is decided by then, so callers report a
// failure as a warning.
func SaveComparison(ctx context.Context, st any, c *compare.Comparison) (saved bool, err error) {
	cr, ok := st.(ComparisonRecorder)
	if !ok {
		return false, nil
	}
	_, err = cr.RecordComparison(ctx, ComparisonRecord(c))
	return err == nil, err
}

// ComparisonRecord turns a comparison into the record a store keeps.
func ComparisonRecord(c *compare.Comparison) *model.ComparisonRecord {
	s := c.Summary
	rec := &model.ComparisonRecord{
		Candidate: c.Candidate, Baseline: c.Baseline,
		Threshold: c.Options.Threshold, Alpha: c.Options.Alpha, Correction: c.Options.Correction,
		Failed: c.Failed(),
		Summary: map[string]any{"regressions": s.Regressions, "improvements": s.Improvements,
			"warnings": s.Warnings, "insufficient": s.Insufficient, "unchanged": s.Unchanged,
			"errors": s.Errors, "incomparable": s.Incomparable, "noisy": s.Noisy, "not_yet_gateable": s.NotYet, "below_threshold": s.BelowThreshold,
			"accepted": s.Accepted},
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

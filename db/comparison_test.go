package db

import (
	"context"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

func TestComparisonRoundTrip(t *testing.T) {
	t.Parallel()
	s, _ := migratedStore(t)
	ctx := context.Background()
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	want := &model.ComparisonRecord{
		Candidate: model.RunRef{ID: "pr-run"},
		Baseline: []model.RunRef{
			{ID: "m2", Commit: "c2", Branch: "main", Testbed: "gpu-h100-1", StartedAt: at.Add(2 * time.Hour)},
			{ID: "m1", Commit: "c1", Branch: "main", Testbed: "gpu-h100-1", StartedAt: at.Add(time.Hour)},
		},
		Threshold: 0.1, Alpha: 0.01, Correction: "bh", Failed: true,
		Summary: map[string]any{"regressions": 1.0, "insufficient": 1.0},
		Results: []model.VerdictRecord{
			{Suite: "elementwise", Name: "add/fp32", Unit: "ns", Better: model.Lower, Verdict: "regression",
				NBaseline: 30, NCandidate: 10, BaselineMedian: 100, CandidateMedian: 121, Change: 0.21,
				CILow: 0.18, CIHigh: 0.24, PValue: 1e-6, PAdjusted: 2e-6, Threshold: 0.1},
			{Suite: "memory", Name: "copy", Unit: "ns", Better: model.Lower, Verdict: "insufficient",
				NBaseline: 3, NCandidate: 2, BaselineMedian: 5, CandidateMedian: 5, Change: 0,
				CILow: math.NaN(), CIHigh: math.NaN(), PValue: math.NaN(), PAdjusted: math.NaN(), Threshold: 0.1,
				Reason: "fewer than 5 samples"},
		},
	}
	if _, err := s.RecordComparison(ctx, want); err != nil {
		t.Fatalf("RecordComparison: %v", err)
	}
	got, err := s.Comparisons(ctx, "pr-run")
	if err != nil {
		t.Fatalf("Comparisons: %v", err)
	}
	if len(got) != 1 {
		t.Fatalf("got %d comparisons, want 1", len(got))
	}
	nan := got[0].Results[1]
	if !math.IsNaN(nan.PValue) || !math.IsNaN(nan.CILow) {
		t.Errorf("NaN figures did not round-trip: %+v", nan)
	}
	// NaN != NaN: compare the rest with the NaN fields cleared on both sides.
	for _, c := range []*model.ComparisonRecord{want, got[0]} {
		c.Results[1].CILow, c.Results[1].CIHigh, c.Results[1].PValue, c.Results[1].PAdjusted = 0, 0, 0, 0
	}
	if !reflect.DeepEqual(got[0], want) {
		t.Errorf("comparison did not round-trip\n got %+v\nwant %+v", got[0], want)
	}
}

package filestore

import (
	"context"
	"fmt"
	"testing"

	"github.com/perfgate/perfgate/internal/scaletest"
	"github.com/perfgate/perfgate/tracker/model"
)

// historyStore returns a store holding n runs of b benchmarks each, written
// directly and indexed by one Record (which repairs the index).
func historyStore(t testing.TB, n, b int) *Store {
	s, _ := Open(t.TempDir())
	var first *model.Results
	for i := range n {
		r := run(fmt.Sprintf("h-%05d", i), i)
		for j := 1; j < b; j++ {
			r.Benchmarks = append(r.Benchmarks, model.Benchmark{Suite: "memory", Name: fmt.Sprintf("other/%d", j),
				Unit: "ns", Better: model.Lower, Samples: []float64{1, 2, 3}})
		}
		mustRecordFast(t, s, r)
		if first == nil {
			first = r
		}
	}
	mustRecord(t, s, first) // a duplicate: indexes the history first
	return s
}

// TestRecordCostIndependentOfHistory: recording a run into a store of 4×
// the history costs about the same (it rewrote the whole index: quadratic
// over a history).
func TestRecordCostIndependentOfHistory(t *testing.T) {
	scaletest.Linear(t, scaletest.Case{N: 200, Reps: 7, PerDoubling: 1.5, Setup: func(n int) func() {
		s := historyStore(t, n, 1)
		next := n
		return func() {
			next++
			mustRecord(t, s, run(fmt.Sprintf("h-%05d", next), next))
		}
	}})
}

// TestTrendCostIndependentOfRunSize: the trend of one benchmark costs about
// the same whether its runs hold 5 or 20 benchmarks: it reads the
// benchmark's series, not the run files.
func TestTrendCostIndependentOfRunSize(t *testing.T) {
	scaletest.Linear(t, scaletest.Case{N: 5, PerDoubling: 1.3, Setup: func(b int) func() {
		s := historyStore(t, 300, b)
		return func() {
			se, err := s.Trend(context.Background(), model.TrendQuery{Pattern: "copy/n=1024"})
			if err != nil || len(se) != 1 || len(se[0].Points) != 300 {
				t.Fatalf("Trend = %d series, %v", len(se), err)
			}
		}
	}})
}

// BenchmarkHistory10k times, over a store of 10,000 runs: recording one
// more run, the trend of one benchmark, and a baseline (what check reads).
//
//	go test ./db/filestore -run '^$' -bench History10k -benchtime 20x
func BenchmarkHistory10k(b *testing.B) {
	s := historyStore(b, 10000, 20)
	ctx := context.Background()
	b.Run("Record", func(b *testing.B) {
		i := 10000
		for b.Loop() {
			i++
			mustRecord(b, s, run(fmt.Sprintf("h-%05d", i), i))
		}
	})
	b.Run("Trend", func(b *testing.B) {
		for b.Loop() {
			if se, err := s.Trend(ctx, model.TrendQuery{Pattern: "copy/n=1024"}); err != nil || len(se) != 1 {
				b.Fatal(err)
			}
		}
	})
	b.Run("Baseline", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.Baseline(ctx, query(3)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

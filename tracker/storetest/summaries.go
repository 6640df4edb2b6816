package storetest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
)

// testBaselineSummarized: with SampleJobs, the runs of the newest jobs come
// back whole and those of older jobs with Summaries instead of Benchmarks
// (Summarize of each benchmark's samples; none where there were none), in
// order, ranked by job (a sharded job is one), with the same runs, order
// and passed-over runs as the query without it.
func testBaselineSummarized(t *testing.T, s history.Store) {
	mixedHistory(t, s)
	rich := richRun("rich", 2)
	rich.Run.Group = ""
	record(t, s, rich)
	q := mainQuery(5)
	whole := baseline(t, s, q)
	q.SampleJobs = 2
	q.Summarize = func(x []float64) model.RunSummary {
		return model.RunSummary{N: len(x), Median: slices.Max(x), CV: x[0]}
	}
	got := baseline(t, s, q)
	if g, w := fmt.Sprint(usedIDs(t, got), incomparableIDs(t, got)), fmt.Sprint(usedIDs(t, whole), incomparableIDs(t, whole)); g != w {
		t.Fatalf("used and passed over %s, want %s", g, w)
	}
	jobs := make([]model.JobKey, len(got.Runs))
	for i, r := range got.Runs {
		jobs[i] = r.Run.JobKey()
	}
	summarized := 0
	var keys *model.SummaryKeys // one for all the summarized runs
	for i, rank := range model.JobRanks(jobs) {
		g, w := got.Runs[i], whole.Runs[i]
		if rank < q.SampleJobs {
			assertSameResults(t, g, w)
			continue
		}
		if g.Run.ID != w.Run.ID || g.Benchmarks != nil || len(g.Summaries) != len(w.Benchmarks) {
			t.Fatalf("run %d: %s with %d benchmarks and %d summaries, want %s with %d summaries",
				i, g.Run.ID, len(g.Benchmarks), len(g.Summaries), w.Run.ID, len(w.Benchmarks))
		}
		if keys == nil {
			keys = g.SummaryKeys
		}
		if g.SummaryKeys != keys {
			t.Errorf("run %d: %s has SummaryKeys of its own, not the other summarized runs'", i, g.Run.ID)
		}
		for j := range g.Summaries {
			wb := w.Benchmarks[j]
			var want model.RunSummary
			if len(wb.Samples) > 0 {
				want = q.Summarize(wb.Samples)
				summarized++
			}
			gk, wk := g.SummaryKey(j), model.SummaryKey{Suite: wb.Suite, Name: wb.Name, Unit: wb.Unit}
			if gs := g.Summaries[j].RunSummary(); gk != wk || gs != want {
				t.Errorf("%s: summary %+v of %+v, want %+v of %+v", g.Run.ID, gs, gk, want, wk)
			}
		}
	}
	if summarized == 0 {
		t.Error("no benchmark came back summarized")
	}
}

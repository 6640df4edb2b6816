package storetest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
)

// testBaselineSummarized: with SampleJobs, the runs of the newest jobs come
// back whole and those of older jobs with every benchmark's samples replaced
// by Summarize's summary (none where there were no samples), ranked by job
// (a sharded job is one), with the same runs, order and passed-over runs as
// the query without it.
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
	for i, rank := range model.JobRanks(jobs) {
		g, w := got.Runs[i], whole.Runs[i]
		if rank < q.SampleJobs {
			assertSameResults(t, g, w)
			continue
		}
		if g.Run.ID != w.Run.ID || len(g.Benchmarks) != len(w.Benchmarks) {
			t.Fatalf("run %d: %s with %d benchmarks, want %s with %d", i, g.Run.ID, len(g.Benchmarks), w.Run.ID, len(w.Benchmarks))
		}
		for j := range g.Benchmarks {
			gb, wb := g.Benchmarks[j], w.Benchmarks[j]
			var want *model.RunSummary
			if len(wb.Samples) > 0 {
				s := q.Summarize(wb.Samples)
				want = &s
				summarized++
			}
			if gb.Samples != nil || gb.Metrics != nil || gb.Info != nil || gb.Params != nil || fmt.Sprint(gb.Summary) != fmt.Sprint(want) {
				t.Errorf("%s %s: samples %v, metrics %v, info %v, params %v, summary %v; want only summary %v",
					g.Run.ID, gb.Name, gb.Samples, gb.Metrics, gb.Info, gb.Params, gb.Summary, want)
			}
			gb.Summary, wb.Samples, wb.Metrics, wb.Info, wb.Params = nil, nil, nil, nil, nil
			if fmt.Sprintf("%+v", gb) != fmt.Sprintf("%+v", wb) {
				t.Errorf("%s %s: %+v, want %+v", g.Run.ID, gb.Name, gb, wb)
			}
		}
	}
	if summarized == 0 {
		t.Error("no benchmark came back summarized")
	}
}

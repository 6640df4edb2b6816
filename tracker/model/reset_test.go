package model

import (
	"testing"
	"time"
)

// TestApplyResets: a reset drops the benchmarks its glob matches from the
// runs of its repository started before it, samples and summaries alike,
// and leaves the store's runs untouched.
func TestApplyResets(t *testing.T) {
	at := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	run := func(id, repo string, started time.Time) *Results {
		keys := &SummaryKeys{keys: []SummaryKey{{Suite: "gemm", Name: "bf16/m=4096"}, {Suite: "saxpy", Name: "n=1M"}}}
		return &Results{Run: Run{ID: id, Repo: repo, StartedAt: started},
			Benchmarks: []Benchmark{{Suite: "gemm", Name: "bf16/m=4096"}, {Suite: "saxpy", Name: "n=1M"}},
			Summaries:  []BenchmarkSummary{{Key: 0}, {Key: 1}}, SummaryKeys: keys}
	}
	before, after, other := run("before", "o/r", at.Add(-time.Hour)), run("after", "o/r", at.Add(time.Hour)), run("other", "o/x", at.Add(-time.Hour))
	b := &Baseline{Runs: []*Results{before, after, other}}
	ApplyResets(b, []Reset{{Repo: "o/r", Glob: "gemm/*", At: at}})
	names := func(r *Results) (out string) {
		for _, bm := range r.Benchmarks {
			out += bm.Suite + " "
		}
		for i := range r.Summaries {
			out += r.SummaryKey(i).Suite + "~ "
		}
		return out
	}
	for i, want := range []string{"saxpy saxpy~ ", "gemm saxpy gemm~ saxpy~ ", "gemm saxpy gemm~ saxpy~ "} {
		if got := names(b.Runs[i]); got != want {
			t.Errorf("run %s keeps %q, want %q", b.Runs[i].Run.ID, got, want)
		}
	}
	if len(before.Benchmarks) != 2 || len(before.Summaries) != 2 {
		t.Errorf("the store's run was changed: %d benchmarks, %d summaries", len(before.Benchmarks), len(before.Summaries))
	}
}

package resultsjson

import (
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

// TestSummarizerLoadMatchesReduce checks that LoadSummarized, which
// summarizes a file's benchmarks as it decodes them (their samples reused),
// gives what Load and Reduce give: the same error (message and path), or
// the same run and summaries, keyed into the one table of the Summarizer.
func TestSummarizerLoadMatchesReduce(t *testing.T) {
	q := model.BaselineQuery{Summarize: func(x []float64) model.RunSummary {
		return model.RunSummary{N: len(x), Median: slices.Max(x), CV: math.Float64frombits(uint64(len(x)))}
	}}
	dir := t.TempDir()
	streamed, reduced := q.Summarizer(), q.Summarizer()
	for name, data := range sourceDocs(t) {
		t.Run(name, func(t *testing.T) {
			path := writeFile(t, dir, "run.json", data)
			want, wantErr := Load(path)
			got, err := LoadSummarized(streamed, path)
			if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
				t.Fatalf("LoadSummarized: %v\nLoad: %v", err, wantErr)
			}
			if err != nil {
				return
			}
			n := len(want.Benchmarks)
			reduced.Reduce(want)
			if got.Benchmarks != nil || len(got.Summaries) != n || !reflect.DeepEqual(got.Run, want.Run) || got.Schema != want.Schema {
				t.Fatalf("got %d benchmarks, %d summaries, run %+v; want none, %d, %+v", len(got.Benchmarks), len(got.Summaries), got.Run, n, want.Run)
			}
			if got.SummaryKeys != streamed.Keys() {
				t.Error("the run's SummaryKeys is not its Summarizer's")
			}
			for i := range got.Summaries {
				g, w := got.Summaries[i].RunSummary(), want.Summaries[i].RunSummary()
				if gk, wk := got.SummaryKey(i), want.SummaryKey(i); gk != wk || g != w {
					t.Errorf("summary %d: %+v of %+v, want %+v of %+v", i, g, gk, w, wk)
				}
			}
		})
	}
}

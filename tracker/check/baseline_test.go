package check

import (
	"context"
	"reflect"
	"testing"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
)

// fakeSource records the query it is asked and answers with b.
type fakeSource struct {
	got model.BaselineQuery
	b   model.Baseline
}

func (f *fakeSource) Baseline(_ context.Context, q model.BaselineQuery) (*model.Baseline, error) {
	f.got = q
	b := f.b
	return &b, nil
}

func TestBaselineQuery(t *testing.T) {
	shard := func(id, group string) *model.Results {
		return &model.Results{Run: model.Run{ID: id, Repo: "o/r", Group: group, Testbed: "h100-1",
			Env: map[string]string{model.EnvGPU: "NVIDIA H100", model.EnvDriver: "570.1", model.EnvCUDA: "12.8"}}}
	}
	passed := make([]model.Incomparable, 5)
	tests := []struct {
		name  string
		cands []*model.Results
		q     Query
		want  model.BaselineQuery
		nInc  int
	}{
		{"one run", []*model.Results{shard("pr1", "")}, Query{Branch: "main", Jobs: 3, History: 20},
			model.BaselineQuery{Repo: "o/r", Branch: "main", Jobs: 20, Exclude: []model.JobKey{{Run: "pr1"}}}, 3},
		// The candidates' own jobs are excluded by the store, every shard:
		// no more jobs are asked for and none is dropped here.
		{"a sharded job, rounds", []*model.Results{shard("j-s0", "j"), shard("j-s1", "j"), shard("x", "")}, Query{Branch: "main", Jobs: 5, History: 2, Testbed: "h100-2"},
			model.BaselineQuery{Repo: "o/r", Branch: "main", Jobs: 5, Exclude: []model.JobKey{{Repo: "o/r", Group: "j"}, {Run: "x"}}}, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := &fakeSource{b: model.Baseline{Incomparable: passed}}
			b, err := Baseline(context.Background(), src, tt.cands, tt.q)
			if err != nil {
				t.Fatal(err)
			}
			tt.want.Testbed = model.FingerprintOf(&tt.cands[0].Run)
			if tt.q.Testbed != "" {
				tt.want.Testbed.Testbed = tt.q.Testbed
			}
			if !reflect.DeepEqual(src.got, tt.want) {
				t.Errorf("query %+v, want %+v", src.got, tt.want)
			}
			if len(b.Incomparable) != tt.nInc {
				t.Errorf("%d incomparable runs, want at most Jobs = %d", len(b.Incomparable), tt.nInc)
			}
		})
	}
}

// TestJudgeBaselineSummarizes: the baseline Judge reads asks the store for
// the samples of the newest Jobs jobs only, and for compare's summaries of
// the rest; Baseline (whole runs, for the skip-unchanged-kernels hashes)
// does not.
func TestJudgeBaselineSummarizes(t *testing.T) {
	cands := []*model.Results{{Run: model.Run{ID: "pr1", Repo: "o/r", Testbed: "h100-1"}}}
	q := Query{Branch: "main", Jobs: 3, History: 20}
	src := &fakeSource{}
	if _, err := JudgeBaseline(context.Background(), src, cands, q); err != nil {
		t.Fatal(err)
	}
	x := []float64{3, 1, 2, 4}
	if got := src.got; got.Jobs != 20 || got.SampleJobs != 3 || got.Summarize == nil ||
		got.Summarize(x) != compare.SummarizeRun(x) {
		t.Errorf("query: %d runs, %d with samples, summarize set %v; want 20, 3, compare.SummarizeRun",
			got.Jobs, got.SampleJobs, got.Summarize != nil)
	}
	if _, err := Baseline(context.Background(), src, cands, q); err != nil {
		t.Fatal(err)
	}
	if src.got.SampleJobs != 0 || src.got.Summarize != nil {
		t.Errorf("Baseline asked for summaries: %d jobs with samples", src.got.SampleJobs)
	}
}

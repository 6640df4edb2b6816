package action

import (
	"context"
	"regexp"
	"slices"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

type fixedBaseline struct{ b *model.Baseline }

func (f fixedBaseline) Baseline(context.Context, model.BaselineQuery) (*model.Baseline, error) {
	return f.b, nil
}

func TestFilteredBaseline(t *testing.T) {
	stored := &model.Results{Benchmarks: []model.Benchmark{{Suite: "io", Name: "copy"}, {Suite: "kernels", Name: "gemm"}, {Suite: "iota", Name: "x"}}}
	// A history-only run the store summarized (model.BaselineQuery.SampleJobs).
	summarized := &model.Results{Benchmarks: slices.Clone(stored.Benchmarks)}
	q := model.BaselineQuery{}
	q.Summarizer().Reduce(summarized)
	tests := []struct {
		only string
		want []string
	}{
		{"", []string{"io", "kernels", "iota"}},
		{"^io$", []string{"io"}},
		{"io", []string{"io", "iota"}},
		{"^none$", nil},
	}
	for _, tt := range tests {
		var only *regexp.Regexp
		if tt.only != "" {
			only = regexp.MustCompile(tt.only)
		}
		b, err := FilteredBaseline(fixedBaseline{&model.Baseline{Runs: []*model.Results{stored, summarized}}}, only).Baseline(context.Background(), model.BaselineQuery{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, bm := range b.Runs[0].Benchmarks {
			got = append(got, bm.Suite)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("filter %q kept %q, want %q", tt.only, got, tt.want)
		}
		got = nil
		for i := range b.Runs[1].Summaries {
			got = append(got, b.Runs[1].SummaryKey(i).Suite)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("filter %q kept the summaries of %q, want %q", tt.only, got, tt.want)
		}
	}
	if len(stored.Benchmarks) != 3 || len(summarized.Summaries) != 3 {
		t.Errorf("the stored runs were changed: %d benchmarks, %d summaries", len(stored.Benchmarks), len(summarized.Summaries))
	}
}

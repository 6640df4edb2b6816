package ab

import (
	"strings"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

func TestSidesOfRound(t *testing.T) {
	tests := []struct{ order, want string }{
		{OrderABBA, "abbaabba"},
		{OrderABAB, "abababab"},
	}
	for _, tt := range tests {
		t.Run(tt.order, func(t *testing.T) {
			a, b := &side{name: "a"}, &side{name: "b"}
			var got []string
			for i := range 4 {
				for _, s := range sidesOfRound(tt.order, i, a, b) {
					got = append(got, s.name)
				}
			}
			if strings.Join(got, "") != tt.want {
				t.Errorf("order = %s, want %s", strings.Join(got, ""), tt.want)
			}
		})
	}
}

func TestPool(t *testing.T) {
	round := func(id string, samples ...float64) *model.Results {
		return &model.Results{Schema: model.Schema, Run: model.Run{ID: id},
			Benchmarks: []model.Benchmark{{Suite: "s", Name: "b", Unit: "us", Samples: samples}}}
	}
	got, err := Pool([]*model.Results{round("r1", 1, 2), round("r2", 3)})
	if err != nil {
		t.Fatal(err)
	}
	if got.Run.ID != "r1" || len(got.Benchmarks) != 1 || len(got.Benchmarks[0].Samples) != 3 {
		t.Errorf("pooled %+v, want the first round's run block and 3 samples", got)
	}
}

func TestHeadRuns(t *testing.T) {
	h := &model.Results{Schema: model.Schema, Run: model.Run{ID: "x", Env: map[string]string{"gpu": "H100"}},
		Benchmarks: []model.Benchmark{{Suite: "s", Name: "b", Unit: "us", Better: model.Lower, Samples: []float64{1}}}}
	job := model.Run{ID: "job", Repo: "o/r", Commit: strings.Repeat("a", 40), Branch: "f", Event: model.EventPullRequest, PR: 3, Testbed: "tb"}
	if err := HeadRuns([]*model.Results{h}, job, "r"); err != nil {
		t.Fatal(err)
	}
	if h.Run.ID != "job-r1" || h.Run.Group != "job" || h.Run.PR != 3 || h.Run.Env["gpu"] != "H100" {
		t.Errorf("run block %+v", h.Run)
	}
}

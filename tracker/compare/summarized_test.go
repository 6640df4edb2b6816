package compare

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

// TestSummarizedHistorySameResults: history-only jobs whose benchmarks a
// store reduced to their summaries (model.BaselineQuery.SampleJobs with
// SummarizeRun, model.Summarizer) give the comparison that their samples give, bit for bit:
// the spread, the run-level test, the noise warnings read from the history's
// CVs, a history run in another time unit, one in an unconvertible unit, a
// benchmark only the history has, one with an error and no samples, sharded
// jobs and an odd and an even number of samples.
func TestSummarizedHistorySameResults(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	draw := func(level, cv float64, n int) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = level * (1 + cv*rng.NormFloat64())
		}
		return x
	}
	var base []*model.Results
	for j := range 12 { // newest first
		shift := 1 + 0.02*rng.NormFloat64()
		bs := []model.Benchmark{
			bench("s", "steady", "ns", model.Lower, draw(100*shift, 0.01, 30+j%2)),
			bench("s", "slower", "ns", model.Lower, draw(100*shift, 0.01, 31)),
			bench("s", "noisy candidate", "ns", model.Lower, draw(100*shift, 0.01, 20)),
		}
		units := bench("s", "units", "us", model.Lower, draw(shift, 0.01, 25))
		switch j % 4 {
		case 1:
			units = bench("s", "units", "ns", model.Lower, draw(1000*shift, 0.01, 25))
		case 2:
			units = bench("s", "units", "B/s", model.Lower, draw(7, 0.01, 25))
		}
		bs = append(bs, units)
		if j >= 8 {
			bs = append(bs, bench("s", "retired", "ns", model.Lower, draw(50, 0.01, 10)))
		}
		if j == 6 {
			bs[0] = model.Benchmark{Suite: "s", Name: "steady", Unit: "ns", Better: model.Lower, Error: "out of memory"}
		}
		r := results(fmt.Sprintf("b%02d", j), "a", bs...)
		r.Run.StartedAt = time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC).Add(-time.Duration(j) * time.Hour)
		if j == 1 || j == 5 { // two shards of one job
			r.Run.Group = fmt.Sprintf("job%d", j)
			r2 := results(fmt.Sprintf("b%02d-2", j), "a", bench("s", "shard two", "ns", model.Lower, draw(80*shift, 0.01, 15)))
			r2.Run.Group, r2.Run.StartedAt = r.Run.Group, r.Run.StartedAt.Add(-time.Minute)
			base = append(base, r, r2)
			continue
		}
		base = append(base, r)
	}
	cand := []*model.Results{results("c1", "b",
		bench("s", "steady", "ns", model.Lower, draw(100, 0.01, 30)),
		bench("s", "slower", "ns", model.Lower, draw(125, 0.01, 31)),
		bench("s", "noisy candidate", "ns", model.Lower, draw(100, 0.3, 20)),
		bench("s", "units", "ns", model.Lower, draw(1000, 0.01, 25)),
		bench("s", "shard two", "ns", model.Lower, draw(80, 0.01, 15)))}
	for _, k := range []int{1, 3, 5} {
		t.Run(fmt.Sprintf("baseline jobs %d", k), func(t *testing.T) {
			opt := DefaultOptions()
			opt.BaselineJobs = k
			want, err := CompareBaseline(baselineOf(base), cand, opt)
			if err != nil {
				t.Fatal(err)
			}
			q := model.BaselineQuery{SampleJobs: k, Summarize: SummarizeRun}
			reduced := baselineOf(base)
			ranks, sum := jobRanks(reduced.Runs), q.Summarizer()
			summarized := 0
			for i, r := range reduced.Runs {
				if q.Summarizes(ranks[i]) {
					c := *r
					sum.Reduce(&c)
					summarized += len(c.Summaries)
					reduced.Runs[i] = &c
				}
			}
			if summarized == 0 {
				t.Fatal("no benchmark was summarized")
			}
			got, err := CompareBaseline(reduced, cand, opt)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := fmt.Sprintf("%+v", got.Results), fmt.Sprintf("%+v", want.Results); g != w {
				t.Errorf("summarized history:\n%s\nwith its samples:\n%s", g, w)
			}
			for i := range got.Results { // the CVs exactly, not as Error rounds them
				if g, w := noiseOf(got.Results[i]), noiseOf(want.Results[i]); g != w {
					t.Errorf("%s: noise warning %+v, want %+v", got.Results[i].Name, g, w)
				}
			}
			if g, w := fmt.Sprint(got.Baseline, got.History), fmt.Sprint(want.Baseline, want.History); g != w {
				t.Errorf("runs used: %s, want %s", g, w)
			}
			if r := byName(t, got, "noisy candidate"); len(r.Warnings) == 0 || r.HistoryJobs != 12 {
				t.Errorf("noisy candidate: %d warnings, %d history jobs; want a warning and 12 jobs", len(r.Warnings), r.HistoryJobs)
			}
		})
	}
}

// baselineOf is the baseline a store returns for runs (newest first).
func baselineOf(runs []*model.Results) *model.Baseline {
	b := &model.Baseline{Runs: slices.Clone(runs)}
	for _, r := range runs {
		b.Used = append(b.Used, r.Run.Ref())
	}
	return b
}

// noiseOf returns r's noise warning, or the zero one.
func noiseOf(r Result) NoiseWarning {
	for _, w := range r.Warnings {
		if nw, ok := w.(*NoiseWarning); ok {
			return *nw
		}
	}
	return NoiseWarning{}
}

package compare

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

// TestSortInPlaceSameResults: sorting a side's only run in place gives the
// comparison that pooling a sorted copy gives, noise warnings (read from
// the runs' samples in their order) included, and leaves the runs' samples
// sorted only where it was allowed and no conversion was needed.
func TestSortInPlaceSameResults(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 13))
	draw := func(level, cv float64) []float64 {
		x := make([]float64, 30)
		for i := range x {
			x[i] = level * (1 + cv*rng.NormFloat64())
		}
		return x
	}
	sides := func() (base, cand []*model.Results) {
		base = []*model.Results{results("b1", "a",
			bench("s", "same", "ns", model.Lower, draw(100, 0.02)),
			bench("s", "slower", "ns", model.Lower, draw(100, 0.02)),
			bench("s", "noisy candidate", "ns", model.Lower, draw(100, 0.01)),
			bench("s", "units", "us", model.Lower, draw(1, 0.02)))}
		cand = []*model.Results{results("c1", "b",
			bench("s", "same", "ns", model.Lower, draw(100, 0.02)),
			bench("s", "slower", "ns", model.Lower, draw(130, 0.02)),
			bench("s", "noisy candidate", "ns", model.Lower, draw(100, 0.3)),
			bench("s", "units", "ns", model.Lower, draw(1000, 0.02)))}
		return base, cand
	}
	tests := []struct {
		name  string
		runs  int // baseline runs
		wantN int // warnings expected in total, to show the noise path ran
	}{
		{"one run a side", 1, 1},
		{"two baseline runs", 2, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, cand := sides()
			if tt.runs == 2 {
				extra, _ := sides()
				extra[0].Run.ID = "b2"
				base = append(base, extra[0])
			}
			clone := func(rs []*model.Results) []*model.Results {
				var out []*model.Results
				for _, r := range rs {
					c := *r
					c.Benchmarks = slices.Clone(r.Benchmarks)
					for i := range c.Benchmarks {
						c.Benchmarks[i].Samples = slices.Clone(c.Benchmarks[i].Samples)
					}
					out = append(out, &c)
				}
				return out
			}
			opt := DefaultOptions()
			want, err := Compare(clone(base), clone(cand), opt)
			if err != nil {
				t.Fatal(err)
			}
			opt.SortInPlace = true
			b2, c2 := clone(base), clone(cand)
			got, err := Compare(b2, c2, opt)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := fmt.Sprintf("%+v", got.Results), fmt.Sprintf("%+v", want.Results); g != w {
				t.Errorf("in place:\n%s\nwith a copy:\n%s", g, w)
			}
			warnings := 0
			for _, r := range got.Results {
				warnings += len(r.Warnings)
			}
			if warnings != tt.wantN {
				t.Errorf("%d warnings, want %d", warnings, tt.wantN)
			}
			sorted := func(r *model.Results, i int) bool { return slices.IsSorted(r.Benchmarks[i].Samples) }
			if !sorted(c2[0], 0) || sorted(c2[0], 3) != true || sorted(b2[0], 3) {
				t.Errorf("sorted in place: cand same %v, cand units %v, base units (converted, must stay) %v",
					sorted(c2[0], 0), sorted(c2[0], 3), sorted(b2[0], 3))
			}
			if tt.runs == 2 && sorted(b2[0], 0) {
				t.Error("a pooled baseline run was sorted in place")
			}
		})
	}
}

// TestPoolsJudgedInParallel: with enough benchmarks for several workers,
// each pooling and releasing its benchmarks' samples as it judges them
// (pool.resolve, pool.release), the comparison is the one that the copying
// path gives, and the runs' samples are untouched where in-place sorting
// was not allowed (run it with -race).
func TestPoolsJudgedInParallel(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	run := func(id string, shift float64) *model.Results {
		var bs []model.Benchmark
		for i := range 300 {
			x := make([]float64, 20)
			for j := range x {
				x[j] = float64(100+i) * shift * (1 + 0.02*rng.NormFloat64())
			}
			bs = append(bs, bench("s", fmt.Sprintf("b%03d", i), "ns", model.Lower, x))
		}
		return results(id, "a", bs...)
	}
	base := []*model.Results{run("b1", 1), run("b2", 1)}
	cand := []*model.Results{run("c1", 1.2)}
	snapshot := func(rs []*model.Results) string {
		return fmt.Sprint(rs[0].Benchmarks[7].Samples, rs[len(rs)-1].Benchmarks[299].Samples)
	}
	before := snapshot(base) + snapshot(cand)
	want, err := Compare(base, cand, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if after := snapshot(base) + snapshot(cand); after != before {
		t.Error("the copying path changed the runs' samples")
	}
	opt := DefaultOptions()
	opt.SortInPlace = true
	got, err := Compare(base, cand, opt)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprintf("%+v", got.Results), fmt.Sprintf("%+v", want.Results); g != w {
		t.Errorf("in place:\n%s\nwith a copy:\n%s", g, w)
	}
	if r := got.Results[0]; r.NBaseline != 40 || r.NCandidate != 20 || !(r.Change > 0.15) {
		t.Errorf("first result: n %d/%d, change %v; want 40/20 samples and about +20%%", r.NBaseline, r.NCandidate, r.Change)
	}
}

package storetest

import (
	"context"
	"maps"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
)

var trendTests = []contractTest{
	{"EmptyHistory", testTrendEmpty},
	{"PointsAndFigures", testTrendPoints},
	{"Filters", testTrendFilters},
	{"UnitChangeSplitsSeries", testTrendUnitChange},
}

// trend runs a trend query, failing the test on error.
func trend(t *testing.T, s history.Store, q model.TrendQuery) []model.TrendSeries {
	t.Helper()
	series, err := s.Trend(context.Background(), q)
	if err != nil {
		t.Fatalf("Trend(%+v): %v", q, err)
	}
	return series
}

// pointIDs maps "suite/name" to the run IDs of its points, in order.
func pointIDs(series []model.TrendSeries) map[string][]string {
	m := map[string][]string{}
	for _, se := range series {
		k := model.Key{Suite: se.Suite, Name: se.Name}.String()
		for _, p := range se.Points {
			m[k] = append(m[k], p.Run.ID)
		}
	}
	return m
}

func testTrendEmpty(t *testing.T, s history.Store) {
	if series := trend(t, s, model.TrendQuery{}); len(series) != 0 {
		t.Errorf("empty store: %d series, want none", len(series))
	}
}

func testTrendPoints(t *testing.T, s history.Store) {
	const add, mixed = "add/fp32/n=16777216", "softmax/fp32/n=4096"
	failed := model.Benchmark{Suite: "mixedops", Name: mixed, Unit: "ns", Better: model.Lower, Error: "timeout"}
	tp := func(samples ...float64) model.Benchmark {
		return model.Benchmark{Suite: "microbatch", Name: "throughput/bs=8", Unit: "items/s", Better: model.Higher, Samples: samples}
	}
	// Recorded out of order: points are ordered by started_at.
	record(t, s,
		mkRun("t2", 2, withBenchmarks(bench("elementwise", add, 7), tp(4), bench("mixedops", mixed, 5, 5))),
		mkRun("t0", 0, withBenchmarks(bench("elementwise", add, 10, 30, 20), tp(2), failed)),
		mkRun("t1", 1, withBenchmarks(bench("elementwise", add, 1, 2, 3, 4), tp(3), failed)),
	)
	series := trend(t, s, model.TrendQuery{})
	var keys []string
	for _, se := range series {
		keys = append(keys, se.Suite+"/"+se.Name)
	}
	// Sorted by suite then name; the failed benchmark's runs give no points.
	assertIDs(t, "series", keys, "elementwise/"+add, "microbatch/throughput/bs=8", "mixedops/"+mixed)
	if len(series) != 3 {
		return
	}
	assertIDs(t, "add points", pointIDs(series[:1])["elementwise/"+add], "t0", "t1", "t2")
	assertIDs(t, "mixedops points", pointIDs(series[2:])["mixedops/"+mixed], "t2")
	if se := series[1]; se.Unit != "items/s" || se.Better != model.Higher {
		t.Errorf("throughput series unit/better = %q/%q, want items/s/higher", se.Unit, se.Better)
	}
	// Expected figures from Python's statistics module:
	//   python3 -c 'import statistics as s; x=[1,2,3,4]; print(s.median(x), s.stdev(x)/s.mean(x))'
	//   → 2.5 0.5163977794943222;  x=[10,30,20] → 20 0.5;  x=[7] → 7 (n=1: CV 0 by definition)
	want := []model.TrendPoint{
		{Run: mkRun("t0", 0).Run.Ref(), Median: 20, CV: 0.5, N: 3},
		{Run: mkRun("t1", 1).Run.Ref(), Median: 2.5, CV: 0.5163977794943222, N: 4},
		{Run: mkRun("t2", 2).Run.Ref(), Median: 7, CV: 0, N: 1},
	}
	for i, p := range series[0].Points {
		w := want[i]
		if normalizeRef(p.Run) != w.Run {
			t.Errorf("point %d run = %+v, want %+v", i, p.Run, w.Run)
		}
		if p.N != w.N || math.Abs(p.Median-w.Median) > 1e-12 || math.Abs(p.CV-w.CV) > 1e-12 {
			t.Errorf("point %d (%s): median %v cv %v n %d, want median %v cv %v n %d",
				i, p.Run.ID, p.Median, p.CV, p.N, w.Median, w.CV, w.N)
		}
	}
}

func testTrendFilters(t *testing.T, s history.Store) {
	const (
		add  = "elementwise/add/fp32/n=16777216"
		gelu = "elementwise/gelu/fp16/n=1048576"
		cp   = "memory/copy/n=268435456"
	)
	three := withBenchmarks(
		bench("elementwise", "add/fp32/n=16777216", 100, 101),
		bench("elementwise", "gelu/fp16/n=1048576", 50, 51),
		bench("memory", "copy/n=268435456", 2000, 2001))
	record(t, s,
		mkRun("m0", 0, three),
		mkRun("other-repo", 5, three, inRepo("other/fork")),
		mkRun("m1", 10, three),
		mkRun("feature", 12, three, onBranch("feature/x")),
		mkRun("fork-pr", 15, three, pullRequest(4)), // a fork's PR from its own main
		mkRun("m2-a100", 20, three, onTestbed("gpu-a100-2")),
	)
	all := []string{"m0", "other-repo", "m1", "feature", "fork-pr", "m2-a100"}
	every := func(ids ...string) map[string][]string {
		return map[string][]string{add: ids, gelu: ids, cp: ids}
	}
	cases := []struct {
		name string
		q    model.TrendQuery
		want map[string][]string
	}{
		{"no filter", model.TrendQuery{}, every(all...)},
		{"suite", model.TrendQuery{Suite: "memory"}, map[string][]string{cp: all}},
		{"pattern glob", model.TrendQuery{Pattern: "add/*/*"}, map[string][]string{add: all}},
		{"pattern exact", model.TrendQuery{Pattern: "gelu/fp16/n=1048576"}, map[string][]string{gelu: all}},
		{"pattern matches leading segments", model.TrendQuery{Pattern: "add/*"}, map[string][]string{add: all}},
		{"pattern literal prefix", model.TrendQuery{Pattern: "gelu"}, map[string][]string{gelu: all}},
		{"pattern never splits a segment", model.TrendQuery{Pattern: "gel"}, map[string][]string{}},
		{"pattern and suite", model.TrendQuery{Suite: "memory", Pattern: "add/*/*"}, map[string][]string{}},
		{"since is inclusive", model.TrendQuery{Since: epoch.Add(10 * time.Hour)}, every("m1", "feature", "fork-pr", "m2-a100")},
		{"branch excludes PR runs", model.TrendQuery{Branch: "main"}, every("m0", "other-repo", "m1", "m2-a100")},
		{"branch and testbed", model.TrendQuery{Branch: "main", Testbed: fixtureTestbed}, every("m0", "other-repo", "m1")},
		{"repo and branch", model.TrendQuery{Repo: fixtureRepo, Branch: "main"}, every("m0", "m1", "m2-a100")},
		{"other branch", model.TrendQuery{Branch: "feature/x"}, every("feature")},
		{"nothing matches", model.TrendQuery{Testbed: "gpu-mi300"}, map[string][]string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := pointIDs(trend(t, s, c.q))
			if !maps.EqualFunc(got, c.want, slices.Equal) {
				t.Errorf("Trend(%+v) points = %v, want %v", c.q, got, c.want)
			}
		})
	}
}

// testTrendUnitChange: a benchmark whose unit changed (a producer moved from
// ns to us, or from ns/op to GB/s) is two series, one per unit, sorted by
// unit: one series across the change would show a false step.
func testTrendUnitChange(t *testing.T, s history.Store) {
	const add, cp = "add/fp32/n=16777216", "copy/n=268435456"
	perOp := func(samples ...float64) model.Benchmark {
		return model.Benchmark{Suite: "memory", Name: cp, Unit: "ns/op", Better: model.Lower, Samples: samples}
	}
	gbps := func(samples ...float64) model.Benchmark {
		return model.Benchmark{Suite: "memory", Name: cp, Unit: "GB/s", Better: model.Higher, Samples: samples}
	}
	us := func(samples ...float64) model.Benchmark {
		return model.Benchmark{Suite: "elementwise", Name: add, Unit: "us", Better: model.Lower, Samples: samples}
	}
	record(t, s,
		mkRun("u0", 0, withBenchmarks(bench("elementwise", add, 1000, 1001), perOp(2000))),
		mkRun("u1", 1, withBenchmarks(bench("elementwise", add, 1002), perOp(2001))),
		mkRun("u2", 2, withBenchmarks(us(1.001, 1.002), gbps(3000))),
		mkRun("u3", 3, withBenchmarks(us(1.003), gbps(3001))),
		mkRun("u4", 4, withBenchmarks(bench("elementwise", add, 1004))), // back to ns: the ns series goes on
	)
	type row struct {
		key, unit string
		better    model.Better
		points    []string
	}
	want := []row{
		{"elementwise/" + add, "ns", model.Lower, []string{"u0", "u1", "u4"}},
		{"elementwise/" + add, "us", model.Lower, []string{"u2", "u3"}},
		{"memory/" + cp, "GB/s", model.Higher, []string{"u2", "u3"}},
		{"memory/" + cp, "ns/op", model.Lower, []string{"u0", "u1"}},
	}
	var got []row
	for _, se := range trend(t, s, model.TrendQuery{}) {
		r := row{key: se.Suite + "/" + se.Name, unit: se.Unit, better: se.Better}
		for _, p := range se.Points {
			r.points = append(r.points, p.Run.ID)
		}
		got = append(got, r)
	}
	if !slices.EqualFunc(got, want, func(a, b row) bool {
		return a.key == b.key && a.unit == b.unit && a.better == b.better && slices.Equal(a.points, b.points)
	}) {
		t.Errorf("series =\n%+v\nwant\n%+v", got, want)
	}
}

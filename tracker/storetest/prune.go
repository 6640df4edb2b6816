package storetest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
)

var pruneTests = []contractTest{
	{"EmptyHistory", testPruneEmpty},
	{"DeletesOlderThan", testPruneOlderThan},
	{"KeepsLatestBaselinePerTestbed", testPruneKeepPerTestbed},
	{"KeepsLatestBaselinePerConfiguration", testPruneKeepPerConfig},
	{"KeptRunsCountRecentOnes", testPruneKeepCountsRecent},
	{"FailedRunsNeverKept", testPruneFailedNotKept},
	{"DryRunDeletesNothing", testPruneDryRun},
	{"KeepsWholeGroups", testPruneKeepsWholeGroups},
	{"ConcurrentCountOnce", testPruneConcurrent},
}

// testPruneConcurrent: two prunes at once delete each run once and,
// between them, report each deleted run once (issue 28, item 14: two
// Postgres prunes reported 37 + 35 deleted for 37).
func testPruneConcurrent(t *testing.T, s history.Store) {
	var runs []*model.Results
	for h := range 250 {
		runs = append(runs, mkRun(fmt.Sprintf("m%d", h), h))
	}
	record(t, s, runs...)
	q := model.PruneQuery{OlderThan: at(1000), BaselineBranch: "main", KeepBaseline: 0}
	var res [2]model.PruneResult
	var errs [2]error
	var wg sync.WaitGroup
	for i := range res {
		wg.Add(1)
		go func() { defer wg.Done(); res[i], errs[i] = s.Prune(context.Background(), q) }()
	}
	wg.Wait()
	if errs[0] != nil || errs[1] != nil {
		t.Fatalf("concurrent prunes: %v, %v", errs[0], errs[1])
	}
	if n, m := res[0].Runs+res[1].Runs, res[0].Samples+res[1].Samples; n != len(runs) || m != samples(runs...) {
		t.Errorf("prunes reported %+v and %+v: %d runs, %d samples; want %d and %d", res[0], res[1], n, m, len(runs), samples(runs...))
	}
	assertIDs(t, "stored after the prunes", storedIDs(t, s))
}

// prune runs a prune, failing the test on error.
func prune(t *testing.T, s history.Store, q model.PruneQuery) model.PruneResult {
	t.Helper()
	res, err := s.Prune(context.Background(), q)
	if err != nil {
		t.Fatalf("Prune(%+v): %v", q, err)
	}
	return res
}

func at(h int) time.Time { return epoch.Add(time.Duration(h) * time.Hour) }

// samples counts the samples of runs.
func samples(runs ...*model.Results) int {
	n := 0
	for _, r := range runs {
		for _, b := range r.Benchmarks {
			n += len(b.Samples)
		}
	}
	return n
}

func ids(runs ...*model.Results) []string {
	var out []string
	for _, r := range runs {
		out = append(out, r.Run.ID)
	}
	return sorted(out...)
}

func testPruneEmpty(t *testing.T, s history.Store) {
	res := prune(t, s, model.PruneQuery{OlderThan: at(1000), BaselineBranch: "main", KeepBaseline: 3})
	if res != (model.PruneResult{}) {
		t.Errorf("prune of an empty store = %+v, want zero", res)
	}
}

func testPruneOlderThan(t *testing.T, s history.Store) {
	failed := model.Benchmark{Suite: "mixedops", Name: "softmax/fp32/n=4096", Unit: "ns", Better: model.Lower, Error: "timeout"}
	old := []*model.Results{
		mkRun("m0", 0), mkRun("m1", 1),
		mkRun("m2", 2, withBenchmarks(bench("memory", "copy/n=1024", 1, 2, 3), failed)),
		mkRun("feature-1", 1, onBranch("feature/x")),
		mkRun("pr-2", 2, pullRequest(7)),
	}
	recent := []*model.Results{mkRun("m3", 3), mkRun("m4", 4), mkRun("pr-5", 5, pullRequest(8))}
	record(t, s, append(slices.Clone(old), recent...)...)
	res := prune(t, s, model.PruneQuery{OlderThan: at(3), BaselineBranch: "main", KeepBaseline: 0})
	if want := (model.PruneResult{Runs: len(old), Samples: samples(old...)}); res != want {
		t.Errorf("prune = %+v, want %+v", res, want)
	}
	assertIDs(t, "stored after prune", storedIDs(t, s), ids(recent...)...)
	// A second prune finds nothing more.
	if res := prune(t, s, model.PruneQuery{OlderThan: at(3), BaselineBranch: "main"}); res != (model.PruneResult{}) {
		t.Errorf("second prune = %+v, want zero", res)
	}
}

// oldHistory records, all older than at(100): five main runs on each of two
// testbeds, pull-request runs on main, and feature-branch runs. It returns
// the runs a prune keeping 2 baseline runs per testbed must keep.
func oldHistory(t *testing.T, s history.Store) (kept, deleted []*model.Results) {
	for h := range 5 {
		h100 := mkRun(fmt.Sprintf("h100-%d", h), h)
		a100 := mkRun(fmt.Sprintf("a100-%d", h), h, onTestbed("gpu-a100-2"), withEnv(model.EnvGPU, "NVIDIA A100-SXM4-80GB"))
		record(t, s, h100, a100)
		if h >= 3 {
			kept = append(kept, h100, a100)
		} else {
			deleted = append(deleted, h100, a100)
		}
	}
	// Newer than every baseline run, yet never protected: not baseline runs.
	others := []*model.Results{
		mkRun("pr-main-10", 10, pullRequest(3)),
		mkRun("feature-11", 11, onBranch("feature/x")),
		mkRun("feature-a100-12", 12, onBranch("feature/x"), onTestbed("gpu-a100-2")),
	}
	record(t, s, others...)
	return kept, append(deleted, others...)
}

func testPruneKeepPerTestbed(t *testing.T, s history.Store) {
	kept, deleted := oldHistory(t, s)
	res := prune(t, s, model.PruneQuery{OlderThan: at(100), BaselineBranch: "main", KeepBaseline: 2})
	if want := (model.PruneResult{Runs: len(deleted), Samples: samples(deleted...)}); res != want {
		t.Errorf("prune = %+v, want %+v", res, want)
	}
	assertIDs(t, "stored after prune", storedIDs(t, s), ids(kept...)...)
}

func testPruneKeepPerConfig(t *testing.T, s history.Store) {
	// The runner's driver was upgraded at hour 3, and another repository
	// shares the store: each configuration keeps its own latest runs, so a
	// rollback or the other repository still has a baseline.
	var kept, deleted []*model.Results
	for h := range 6 {
		driver := "570.172.08"
		if h >= 3 {
			driver = "580.95.05"
		}
		r := mkRun(fmt.Sprintf("mine-%d", h), h, withEnv(model.EnvDriver, driver))
		o := mkRun(fmt.Sprintf("theirs-%d", h), h, inRepo("other/fork"))
		record(t, s, r, o)
		if h == 1 || h == 2 || h == 4 || h == 5 {
			kept = append(kept, r)
		} else {
			deleted = append(deleted, r)
		}
		if h >= 4 {
			kept = append(kept, o)
		} else {
			deleted = append(deleted, o)
		}
	}
	res := prune(t, s, model.PruneQuery{OlderThan: at(100), BaselineBranch: "main", KeepBaseline: 2})
	if want := (model.PruneResult{Runs: len(deleted), Samples: samples(deleted...)}); res != want {
		t.Errorf("prune = %+v, want %+v", res, want)
	}
	assertIDs(t, "stored after prune", storedIDs(t, s), ids(kept...)...)
}

func testPruneKeepCountsRecent(t *testing.T, s history.Store) {
	// The latest 3 baseline runs are m2, m3, m4: only m2 is old enough to
	// delete, and it is protected.
	runs := []*model.Results{mkRun("m0", 0), mkRun("m1", 1), mkRun("m2", 2), mkRun("m3", 3), mkRun("m4", 4)}
	record(t, s, runs...)
	res := prune(t, s, model.PruneQuery{OlderThan: at(3), BaselineBranch: "main", KeepBaseline: 3})
	if want := (model.PruneResult{Runs: 2, Samples: samples(runs[:2]...)}); res != want {
		t.Errorf("prune = %+v, want %+v", res, want)
	}
	assertIDs(t, "stored after prune", storedIDs(t, s), "m2", "m3", "m4")
}

// testPruneFailedNotKept: the runs a prune keeps are the latest successful
// baseline runs, the ones a baseline query would use; newer main runs whose
// every benchmark failed are not baselines and must not take their place.
func testPruneFailedNotKept(t *testing.T, s history.Store) {
	failed := withBenchmarks(model.Benchmark{Suite: "elementwise", Name: "add/fp32/n=16777216", Unit: "ns",
		Better: model.Lower, Error: "CUDA_ERROR_LAUNCH_FAILED"})
	ok := []*model.Results{mkRun("m0", 0), mkRun("m1", 1), mkRun("m2", 2)}
	record(t, s, ok...)
	record(t, s, mkRun("f3", 3, failed), mkRun("f4", 4, failed))
	res := prune(t, s, model.PruneQuery{OlderThan: at(100), BaselineBranch: "main", KeepBaseline: 2})
	if want := (model.PruneResult{Runs: 3, Samples: samples(ok[0])}); res != want {
		t.Errorf("prune = %+v, want %+v (m0, f3, f4)", res, want)
	}
	assertIDs(t, "stored after prune", storedIDs(t, s), "m1", "m2")
	assertIDs(t, "baseline after prune", usedIDs(t, baseline(t, s, mainQuery(2))), "m2", "m1")
}

func testPruneDryRun(t *testing.T, s history.Store) {
	kept, deleted := oldHistory(t, s)
	before := storedIDs(t, s)
	q := model.PruneQuery{OlderThan: at(100), BaselineBranch: "main", KeepBaseline: 2, DryRun: true}
	want := model.PruneResult{Runs: len(deleted), Samples: samples(deleted...)}
	if res := prune(t, s, q); res != want {
		t.Errorf("dry run = %+v, want %+v", res, want)
	}
	assertIDs(t, "stored after dry run", storedIDs(t, s), before...)
	q.DryRun = false
	if res := prune(t, s, q); res != want {
		t.Errorf("prune after dry run = %+v, want %+v", res, want)
	}
	assertIDs(t, "stored after prune", storedIDs(t, s), ids(kept...)...)
}

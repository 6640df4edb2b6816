package storetest

import (
	"slices"
	"testing"

	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
)

// Sharded jobs: the shards of one CI job share run.group, and each holds
// only its own benchmarks. A baseline of K is K jobs (model.BaselineQuery),
// else a benchmark of a shard left out would get no baseline samples.

// testBaselineShardedJobs: three 4-shard jobs, shards recorded out of
// order; K = 2 takes all eight shards of the two newest jobs.
func testBaselineShardedJobs(t *testing.T, s history.Store) {
	recorded := map[string]*model.Results{}
	for _, job := range []struct {
		name string
		hour int
	}{{"job1", 10}, {"job0", 0}, {"job2", 20}} {
		for _, i := range []int{2, 0, 3, 1} {
			r := shard(job.name, i, job.hour+i)
			record(t, s, r)
			recorded[r.Run.ID] = r
		}
	}
	b := baseline(t, s, mainQuery(2))
	assertIDs(t, "used", usedIDs(t, b), "job2-s3", "job2-s2", "job2-s1", "job2-s0",
		"job1-s3", "job1-s2", "job1-s1", "job1-s0")
	assertIDs(t, "incomparable", incomparableIDs(t, b))
	// Every shard's benchmark gets samples from both jobs.
	perBench := map[string]int{}
	for _, r := range b.Runs {
		for _, bm := range r.Benchmarks {
			perBench[bm.Name]++
		}
	}
	for _, name := range []string{"shard0/n=1024", "shard1/n=1024", "shard2/n=1024", "shard3/n=1024"} {
		if perBench[name] != 2 {
			t.Errorf("benchmark %s is in %d baseline runs, want 2 (one per job)", name, perBench[name])
		}
	}
	for _, r := range b.Runs {
		assertSameResults(t, r, recorded[r.Run.ID])
	}
}

// mixedHistory records single runs and sharded jobs whose shards straddle
// single runs in time, with one shard on an upgraded driver and a job of
// the same group name in another repository.
func mixedHistory(t *testing.T, s history.Store) {
	upgraded := withEnv(model.EnvDriver, "590.10.02")
	record(t, s,
		mkRun("r0", 0),
		shard("a", 0, 1), shard("a", 1, 4), // job a: its time is h4, its newest shard's
		mkRun("r3", 3),
		shard("b", 0, 5), shard("b", 1, 6), shard("b", 2, 7, upgraded), // b-s2 is not comparable
		mkRun("r8", 8),
		shard("fork-b", 0, 9, inRepo("other/fork"), inGroup("b")), // group "b" of another repository
	)
}

func testBaselineGroupedAndUngrouped(t *testing.T, s history.Store) {
	mixedHistory(t, s)
	cases := []struct {
		name         string
		q            model.BaselineQuery
		used, passed []string
	}{
		{"K=1: a single run", mainQuery(1), []string{"r8"}, nil},
		// b-s2 is passed over: same label, newer than the oldest shard used.
		{"K=2: job b, comparable shards only", mainQuery(2), []string{"r8", "b-s1", "b-s0"}, []string{"b-s2"}},
		// Job a (h4) is newer than r3 (h3), though its shard a-s0 (h1) is older.
		{"K=3: a job's time is its newest shard's", mainQuery(3),
			[]string{"r8", "b-s1", "b-s0", "a-s1", "a-s0"}, []string{"b-s2"}},
		{"K=4", mainQuery(4), []string{"r8", "b-s1", "b-s0", "a-s1", "r3", "a-s0"}, []string{"b-s2"}},
		{"K=10: all", mainQuery(10), []string{"r8", "b-s1", "b-s0", "a-s1", "r3", "a-s0", "r0"}, []string{"b-s2"}},
		// The candidate's own job is excluded whole: every shard, and the
		// shards it passed over too; K jobs are still found.
		{"exclude a job", func() model.BaselineQuery {
			q := mainQuery(3)
			q.Exclude = []model.JobKey{{Repo: fixtureRepo, Group: "b"}}
			return q
		}(), []string{"r8", "a-s1", "r3", "a-s0"}, nil},
		{"exclude a job and a run", func() model.BaselineQuery {
			q := mainQuery(3)
			q.Exclude = []model.JobKey{{Repo: fixtureRepo, Group: "b"}, {Run: "r8"}}
			return q
		}(), []string{"a-s1", "r3", "a-s0", "r0"}, nil},
		{"a group of another repo is another job", func() model.BaselineQuery {
			q := mainQuery(2)
			q.Repo = ""
			q.Exclude = []model.JobKey{{Repo: "other/fork", Group: "b"}}
			return q
		}(), []string{"r8", "b-s1", "b-s0"}, []string{"b-s2"}},
		// A group belongs to its repository: the fork's "b" is a job of its own.
		{"any repo", func() model.BaselineQuery { q := mainQuery(2); q.Repo = ""; return q }(),
			[]string{"fork-b-s0", "r8"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := baseline(t, s, c.q)
			assertIDs(t, "used", usedIDs(t, b), c.used...)
			assertIDs(t, "incomparable", incomparableIDs(t, b), c.passed...)
		})
	}
}

// testPruneKeepsWholeGroups: keeping the latest 2 baseline jobs keeps every
// shard of them, never half a job; a pull-request run that carries the
// group is no baseline shard and goes.
func testPruneKeepsWholeGroups(t *testing.T, s history.Store) {
	deleted := []*model.Results{shard("a", 0, 0), shard("a", 1, 1), shard("a", 2, 2), shard("b", 9, 9, pullRequest(5))}
	kept := []*model.Results{shard("b", 0, 3), shard("b", 1, 4), mkRun("r5", 5)}
	record(t, s, append(slices.Clone(deleted), kept...)...)
	res := prune(t, s, model.PruneQuery{OlderThan: at(100), BaselineBranch: "main", KeepBaseline: 2})
	if want := (model.PruneResult{Runs: len(deleted), Samples: samples(deleted...)}); res != want {
		t.Errorf("prune = %+v, want %+v", res, want)
	}
	assertIDs(t, "stored after prune", storedIDs(t, s), ids(kept...)...)
	assertIDs(t, "baseline after prune", usedIDs(t, baseline(t, s, mainQuery(2))), "r5", "b-s1", "b-s0")
}

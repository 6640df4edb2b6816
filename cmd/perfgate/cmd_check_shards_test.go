package main

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

// shard makes run id the shard of job group holding one benchmark, bench.
func shard(id, group, bench string, hour int) *model.Results {
	return histRun(id, hour, 100, func(r *model.Results) {
		r.Run.Group = group
		r.Benchmarks[0].Name = bench
	})
}

// TestCheckShardedHistory: with main's job split into two shards (add in
// one, gelu in the other), --baseline-jobs 2 means two jobs, so both
// benchmarks get baseline samples; and a candidate shard whose sibling is
// already recorded (a main push recorded shard by shard) never uses its
// own job as baseline.
func TestCheckShardedHistory(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	var runs []*model.Results
	for job := range 3 {
		g := fmt.Sprintf("job%d", job)
		runs = append(runs, shard(g+"-add", g, "add", 2*job), shard(g+"-gelu", g, "gelu", 2*job+1))
	}
	// The candidate's sibling shard, already recorded.
	runs = append(runs, shard("job3-add", "job3", "add", 10))
	args := append([]string{"record", "--store", store}, writeRuns(t, dir, runs...)...)
	if _, errOut, code := invoke(t, nil, args...); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	cand := writeRuns(t, t.TempDir(), shard("job3-gelu", "job3", "gelu", 11))[0]
	out, errOut, code := invoke(t, nil, "check", "--store", store, "--candidate", cand, "--baseline-jobs", "2", "--format", "json")
	if code != 0 {
		t.Fatalf("check: exit %d: %s", code, errOut)
	}
	c := parseCheck(t, out)
	if got, want := refIDs(c.BaselineRuns), "job2-gelu job2-add job1-gelu job1-add"; got != want {
		t.Errorf("baseline runs %q, want %q (two whole jobs, not the candidate's own)", got, want)
	}
	if c.Summary.Unchanged != 1 || c.Summary.Insufficient != 0 {
		t.Errorf("summary %+v: want gelu judged against the two jobs' gelu shards", c.Summary)
	}
}

// Package storetest holds the contract every history.Store must satisfy: the
// embedded directory store and the Postgres store run the same tests, so
// baselines, trends and pruning mean the same thing whichever one is in use.
//
// The tests see a store only through history.Store: no file paths, no SQL.
// Beyond the doc comments of tracker and tracker/model, the contract pins:
//   - Stored runs come back with the same content (maps and slices compared
//     with nil equal to empty; benchmarks in any order; times by Equal).
//   - Baseline runs are ordered by started_at, newest first; K counts jobs
//     (model.JobKey), and every comparable shard of the K jobs is returned.
//   - Trend series are keyed and sorted by suite, name, then unit (a unit
//     change starts a new series); a benchmark with no
//     samples in a run contributes no point; Median is the middle sample (the
//     mean of the two middle ones for an even count), CV is the sample
//     standard deviation (n−1) over the mean (0 for a single sample).
//   - Prune never deletes any shard of the latest KeepBaseline baseline jobs
//     of each comparable configuration: repo, testbed, GPU, driver major and
//     CUDA.
//   - Shard reports (shards.go) come back by shard, a shard's later report
//     replacing its earlier one, and sets do not see each other's.
//
// It imports testing, so only test files may import it.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// Run runs the contract against stores made by open. Each subtest gets a
// fresh, empty store from open and closes it when the subtest ends.
func Run(t *testing.T, open func(t *testing.T) history.Store) {
	groups := []struct {
		name  string
		tests []contractTest
	}{
		{"Record", recordTests},
		{"Baseline", baselineTests},
		{"Trend", trendTests},
		{"Prune", pruneTests},
		{"Shards", shardTests},
		{"Resets", resetTests},
		{"Acceptances", acceptanceTests},
	}
	for _, g := range groups {
		t.Run(g.name, func(t *testing.T) {
			for _, ct := range g.tests {
				t.Run(ct.name, func(t *testing.T) {
					s := open(t)
					t.Cleanup(func() {
						if err := s.Close(); err != nil {
							t.Errorf("Close: %v", err)
						}
					})
					ct.fn(t, s)
				})
			}
		})
	}
}

// A contractTest is one named case of the contract.
type contractTest struct {
	name string
	fn   func(t *testing.T, s history.Store)
}

var recordTests = []contractTest{
	{"RoundTrip", testRoundTrip},
	{"ErrorWithoutSamples", testErrorWithoutSamples},
	{"SameContentIsDuplicate", testDuplicate},
	{"OtherContentConflicts", testConflict},
	{"StartedAtZoneAndPrecision", testStartedAt},
	{"ReorderedIsDuplicate", testReordered},
	{"ConcurrentSameRun", testConcurrentSameRun},
	{"ConcurrentDistinctRuns", testConcurrentDistinctRuns},
	{"FromFile", testRecordSource},
}

func testRoundTrip(t *testing.T, s history.Store) {
	want := richRun("run-rich", 0)
	record(t, s, want)
	b := baseline(t, s, mainQuery(1))
	if ids := usedIDs(t, b); len(ids) != 1 {
		t.Fatalf("baseline used %v, want [run-rich]", ids)
	}
	assertSameResults(t, b.Runs[0], want)
	if b.Runs[0].Schema != model.Schema {
		t.Errorf("schema = %q, want %q", b.Runs[0].Schema, model.Schema)
	}
}

func testErrorWithoutSamples(t *testing.T, s history.Store) {
	failed := model.Benchmark{Suite: "elementwise", Name: "gelu/fp16/n=1048576", Unit: "ns",
		Better: model.Lower, Error: "CUDA_ERROR_ILLEGAL_ADDRESS"}
	want := mkRun("run-err", 0, withBenchmarks(failed, bench("memory", "copy/n=1024", 5, 6, 7)))
	record(t, s, want)
	b := baseline(t, s, mainQuery(3))
	if len(b.Runs) != 1 {
		t.Fatalf("baseline has %d runs, want 1", len(b.Runs))
	}
	assertSameResults(t, b.Runs[0], want)
}

func testDuplicate(t *testing.T, s history.Store) {
	want := richRun("run-1", 0)
	record(t, s, want)
	for i := 0; i < 2; i++ {
		out, err := s.Record(context.Background(), clone(t, want))
		if err != nil {
			t.Fatalf("re-record %d: %v", i, err)
		}
		if out != model.Duplicate {
			t.Fatalf("re-record %d = %v, want Duplicate", i, out)
		}
	}
	b := baseline(t, s, mainQuery(5))
	if ids := usedIDs(t, b); len(ids) != 1 {
		t.Fatalf("after re-recording, baseline used %v, want one run", ids)
	}
	assertSameResults(t, b.Runs[0], want)
}

func testConflict(t *testing.T, s history.Store) {
	orig := richRun("run-1", 0)
	record(t, s, orig)
	cases := []struct {
		name   string
		change opt
	}{
		{"sample", func(r *model.Results) { r.Benchmarks[0].Samples[2] += 0.5 }},
		{"env", withEnv(model.EnvDriver, "580.95.06")},
		{"commit", func(r *model.Results) { r.Run.Commit = "0123456789abcdef0123456789abcdef01234567" }},
		{"started_at", func(r *model.Results) { r.Run.StartedAt = r.Run.StartedAt.Add(time.Second) }},
		{"benchmark added", func(r *model.Results) {
			r.Benchmarks = append(r.Benchmarks, bench("memory", "copy/n=1024", 1, 2, 3))
		}},
		{"benchmark removed", func(r *model.Results) { r.Benchmarks = r.Benchmarks[:1] }},
		{"metric", func(r *model.Results) { r.Benchmarks[0].Metrics["gbps"] = 1 }},
		{"error text", func(r *model.Results) { r.Benchmarks[2].Error = "other" }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			other := clone(t, orig)
			c.change(other)
			out, err := s.Record(context.Background(), other)
			var ce *model.ConflictError
			if !errors.As(err, &ce) {
				t.Fatalf("Record = %v, %v; want a *model.ConflictError", out, err)
			}
			if ce.RunID != orig.Run.ID {
				t.Errorf("ConflictError.RunID = %q, want %q", ce.RunID, orig.Run.ID)
			}
		})
	}
	b := baseline(t, s, mainQuery(5))
	if len(b.Runs) != 1 {
		t.Fatalf("after conflicts, baseline has %d runs, want 1", len(b.Runs))
	}
	assertSameResults(t, b.Runs[0], orig)
}

// testStartedAt pins how start times are stored: as instants (the zone they
// were written in does not matter, so the same run re-encoded in UTC is a
// duplicate) and to at least microsecond precision, as producers write
// time.Now() with nanoseconds.
func testStartedAt(t *testing.T, s history.Store) {
	cet := time.FixedZone("CET", 3600)
	orig := mkRun("run-tz", 0, func(r *model.Results) {
		r.Run.StartedAt = time.Date(2026, 3, 1, 10, 0, 0, 123456789, cet)
	})
	record(t, s, orig)
	utc := clone(t, orig)
	utc.Run.StartedAt = orig.Run.StartedAt.UTC()
	out, err := s.Record(context.Background(), utc)
	if err != nil || out != model.Duplicate {
		t.Fatalf("re-record in UTC = %v, %v; want Duplicate", out, err)
	}
	b := baseline(t, s, mainQuery(1))
	if len(b.Runs) != 1 {
		t.Fatalf("baseline has %d runs, want 1", len(b.Runs))
	}
	if d := b.Runs[0].Run.StartedAt.Sub(orig.Run.StartedAt); d < -time.Microsecond || d > time.Microsecond {
		t.Errorf("started_at came back as %v, want %v to the microsecond", b.Runs[0].Run.StartedAt, orig.Run.StartedAt)
	}
}

// testReordered: the same run with its benchmarks in another order and
// empty maps written out is the same content (model.Results.Canonical), in
// every store.
func testReordered(t *testing.T, s history.Store) {
	orig := richRun("run-order", 0)
	record(t, s, orig)
	re := clone(t, orig)
	slices.Reverse(re.Benchmarks)
	for i := range re.Benchmarks {
		if re.Benchmarks[i].Params == nil {
			re.Benchmarks[i].Params = map[string]string{}
		}
	}
	out, err := s.Record(context.Background(), re)
	if err != nil || out != model.Duplicate {
		t.Fatalf("re-record with benchmarks reordered = %v, %v; want Duplicate", out, err)
	}
}

func testConcurrentSameRun(t *testing.T, s history.Store) {
	const writers = 8
	r := richRun("run-race", 0)
	outs := make([]model.RecordOutcome, writers)
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for i := range writers {
		c := clone(t, r)
		wg.Go(func() { outs[i], errs[i] = s.Record(context.Background(), c) })
	}
	wg.Wait()
	recorded := 0
	for i := range writers {
		if errs[i] != nil {
			t.Errorf("writer %d: %v", i, errs[i])
		}
		if outs[i] == model.Recorded {
			recorded++
		}
	}
	if recorded != 1 {
		t.Errorf("%d writers got Recorded, want exactly 1 (the rest Duplicate)", recorded)
	}
	b := baseline(t, s, mainQuery(writers))
	if len(b.Runs) != 1 {
		t.Fatalf("baseline has %d runs, want 1", len(b.Runs))
	}
	assertSameResults(t, b.Runs[0], r)
}

func testConcurrentDistinctRuns(t *testing.T, s history.Store) {
	const writers = 8
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for i := range writers {
		r := mkRun(fmt.Sprintf("run-%d", i), i)
		wg.Go(func() { _, errs[i] = s.Record(context.Background(), r) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("writer %d: %v", i, err)
		}
	}
	b := baseline(t, s, mainQuery(writers+1))
	if len(b.Runs) != writers {
		t.Errorf("baseline has %d runs, want all %d recorded concurrently", len(b.Runs), writers)
	}
}

// SourceFile writes r as a results file in a temporary directory of t and
// opens it a benchmark at a time (resultsjson.OpenSource), as record opens the
// files it is given.
func SourceFile(t *testing.T, r *model.Results) *resultsjson.Source {
	t.Helper()
	return openFile(t, filepath.Join(t.TempDir(), "run.json"), r)
}

// openFile writes r to path and opens it with resultsjson.OpenSource.
func openFile(t *testing.T, path string, r *model.Results) *resultsjson.Source {
	t.Helper()
	if err := resultsjson.WriteFile(path, r); err != nil {
		t.Fatal(err)
	}
	src, err := resultsjson.OpenSource(path)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// testRecordSource: a run recorded from its results file, read a benchmark
// at a time (RecordSource of resultsjson.OpenSource), is the run recorded from
// memory: it comes back the same, the same content either way (benchmarks
// in another order included) is a duplicate, and other content conflicts.
func testRecordSource(t *testing.T, s history.Store) {
	ctx := context.Background()
	dir := t.TempDir()
	open := func(name string, r *model.Results) *resultsjson.Source {
		t.Helper()
		path := filepath.Join(dir, name)
		r = clone(t, r)
		for i := range r.Benchmarks { // as the format wants: no samples is [], not null
			if r.Benchmarks[i].Samples == nil {
				r.Benchmarks[i].Samples = []float64{}
			}
		}
		return openFile(t, path, r)
	}
	want := richRun("run-file", 0)
	if out, err := s.RecordSource(ctx, open("run.json", want)); err != nil || out != model.Recorded {
		t.Fatalf("RecordSource = %v, %v; want Recorded", out, err)
	}
	b := baseline(t, s, mainQuery(1))
	if len(b.Runs) != 1 {
		t.Fatalf("baseline has %d runs, want 1", len(b.Runs))
	}
	assertSameResults(t, b.Runs[0], want)
	if out, err := s.Record(ctx, clone(t, want)); err != nil || out != model.Duplicate {
		t.Errorf("the run again, from memory = %v, %v; want Duplicate", out, err)
	}
	re := clone(t, want)
	slices.Reverse(re.Benchmarks)
	if out, err := s.RecordSource(ctx, open("reordered.json", re)); err != nil || out != model.Duplicate {
		t.Errorf("the run again, from a file in another order = %v, %v; want Duplicate", out, err)
	}
	other := clone(t, want)
	other.Benchmarks[0].Samples[1] += 0.5
	if out, err := s.RecordSource(ctx, open("other.json", other)); !errors.As(err, new(*model.ConflictError)) {
		t.Errorf("other content from a file = %v, %v; want a *model.ConflictError", out, err)
	}
	mem := richRun("run-mem", 1)
	record(t, s, mem)
	if out, err := s.RecordSource(ctx, open("mem.json", mem)); err != nil || out != model.Duplicate {
		t.Errorf("a run recorded from memory, again from a file = %v, %v; want Duplicate", out, err)
	}
}

package db

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

func TestRecordRejectsWhatTheSchemaForbids(t *testing.T) {
	t.Parallel()
	s, _ := migratedStore(t)
	r := syntheticRun("bad-better", 2, 3, time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	r.Benchmarks[1].Better = "smaller" // model.Load would have refused it; Record must not store it either
	_, err := s.Record(context.Background(), r)
	if !model.IsInputError(err) || errors.As(err, new(*model.InfraError)) {
		t.Fatalf("Record = %v, want a *model.InputError (bad input, not a database failure)", err)
	}
	assertRowCounts(t, s, 0, 0, 0)
}

func TestRecordKeepsParamsPerRun(t *testing.T) {
	t.Parallel()
	s, _ := migratedStore(t)
	ctx := context.Background()
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	first := syntheticRun("p1", 1, 3, at)
	second := syntheticRun("p2", 1, 3, at.Add(time.Hour))
	second.Benchmarks[0].Params = map[string]string{"n": "1048576", "dtype": "fp16"}
	third := syntheticRun("p3", 1, 3, at.Add(2*time.Hour))
	third.Benchmarks[0].Params = nil
	for _, r := range []*model.Results{first, second, third} {
		if _, err := s.Record(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	b, err := s.Baseline(ctx, model.BaselineQuery{Branch: "main", Testbed: model.FingerprintOf(&first.Run), Runs: 3})
	if err != nil || len(b.Runs) != 3 {
		t.Fatalf("Baseline: %d runs, %v", len(b.Runs), err)
	}
	for i, want := range []int{0, 2, 1} { // newest first: p3 (none), p2 (two), p1 (one)
		if got := len(b.Runs[i].Benchmarks[0].Params); got != want {
			t.Errorf("run %s: %d params, want %d", b.Runs[i].Run.ID, got, want)
		}
	}
}

// TestInsertBenchmarksAfterAnotherWriter: when another writer stored some
// of a run's new benchmarks between its lookup and its insert, the plain
// insert fails as a whole and the fallback returns every row, in order,
// the other writer's included.
func TestInsertBenchmarksAfterAnotherWriter(t *testing.T) {
	t.Parallel()
	s, _ := migratedStore(t)
	ctx := context.Background()
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	other := syntheticRun("other", 3, 1, at)
	if _, err := s.Record(ctx, other); err != nil {
		t.Fatal(err)
	}
	bs := model.SourceOf(syntheticRun("mine", 5, 1, at)).Heads()
	bs[0], bs[4] = bs[4], bs[0] // not in key order
	rows, err := s.insertBenchmarks(ctx, bs)
	if err != nil {
		t.Fatalf("insertBenchmarks = %v", err)
	}
	keys, _, _ := newBenchmarkRows(bs)
	want, found, err := s.lookupBenchmarks(ctx, keys)
	if err != nil {
		t.Fatal(err)
	}
	for i := range bs {
		if !found[i] || rows[i].id != want[i].id {
			t.Errorf("benchmark %d: id %d, stored %d (found %v)", i, rows[i].id, want[i].id, found[i])
		}
	}
}

package db

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

func TestRecordRejectsWhatTheSchemaForbids(t *testing.T) {
	t.Parallel()
	s, _ := migratedStore(t)
	r := syntheticRun("bad-better", 2, 3, time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	r.Benchmarks[1].Better = "smaller" // resultsjson.Load would have refused it; Record must not store it either
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
	b, err := s.Baseline(ctx, model.BaselineQuery{Branch: "main", Testbed: model.FingerprintOf(&first.Run), Jobs: 3})
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
	bs := resultsjson.SourceOf(syntheticRun("mine", 5, 1, at)).Heads()
	bs[0], bs[4] = bs[4], bs[0] // not in key order
	keys, params := newBenchmarkRows(bs)
	rows, err := s.insertBenchmarks(ctx, keys, params)
	if err != nil {
		t.Fatalf("insertBenchmarks = %v", err)
	}
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

// TestRecordNewBenchmarksInBatches: a run of more new benchmarks than one
// insert sends (lookupBatch) gets every row once, each run_benchmarks row
// refers to its own benchmark, and where the database orders text byte by
// byte the ids follow key order, as one insert of them all numbers them.
// Writers racing to add the same rows, each in its own order, all succeed.
func TestRecordNewBenchmarksInBatches(t *testing.T) {
	t.Parallel()
	s, u := migratedStore(t)
	ctx := context.Background()
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	const n = 2*lookupBatch + 500
	run := func(id, suite string, seed uint64) *model.Results {
		r := syntheticRun(id, n, 2, at)
		for i := range r.Benchmarks {
			r.Benchmarks[i].Suite = fmt.Sprintf("%s%d", suite, i%3)
		}
		rng := rand.New(rand.NewPCG(seed, 2))
		rng.Shuffle(n, func(i, j int) { r.Benchmarks[i], r.Benchmarks[j] = r.Benchmarks[j], r.Benchmarks[i] })
		return r
	}
	r := run("one", "a", 1)
	if _, err := s.Record(ctx, r); err != nil {
		t.Fatal(err)
	}
	batch, err := s.insertBatch(ctx, n)
	if err != nil {
		t.Fatal(err)
	}
	if batch < n {
		assertIDsInKeyOrder(t, s, "a%")
	} else {
		t.Logf("the database's collation is not byte order: the %d rows were inserted at once", n)
	}

	var wg sync.WaitGroup
	runs := []*model.Results{r}
	for w := range 3 {
		rw := run(fmt.Sprintf("w%d", w), "b", uint64(10+w))
		runs = append(runs, rw)
		wg.Go(func() {
			st, err := Open(ctx, withParam(u, "pool_max_conns=1"))
			if err != nil {
				t.Error(err)
				return
			}
			defer st.Close()
			if _, err := st.Record(ctx, rw); err != nil {
				t.Errorf("writer %d: %v", w, err)
			}
		})
	}
	wg.Wait()
	var rows int
	if err := s.pool.QueryRow(ctx, "select count(*) from benchmarks").Scan(&rows); err != nil || rows != 2*n {
		t.Errorf("%d benchmarks rows (%v), want %d", rows, err, 2*n)
	}
	for _, r := range runs {
		assertRunBenchmarks(t, s, r)
	}
}

// assertIDsInKeyOrder checks that the ids of the benchmarks of the suites
// like pattern increase in key order, byte by byte.
func assertIDsInKeyOrder(t *testing.T, s *Store, pattern string) {
	t.Helper()
	rows, err := s.pool.Query(context.Background(), `select id from benchmarks where suite like $1
		order by suite collate "C", name collate "C", unit collate "C", better collate "C"`, pattern)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(ids); i++ {
		if ids[i] <= ids[i-1] {
			t.Fatalf("benchmark ids not in key order: %d after %d (row %d)", ids[i], ids[i-1], i)
		}
	}
}

// assertRunBenchmarks checks that each run_benchmarks row of r refers to
// the benchmarks row of r's benchmark at its position.
func assertRunBenchmarks(t *testing.T, s *Store, r *model.Results) {
	t.Helper()
	rows, err := s.pool.Query(context.Background(), `
		select rb.ord, b.suite, b.name from run_benchmarks rb
		join runs on runs.pk = rb.run_pk join benchmarks b on b.id = rb.benchmark_id
		where runs.id = $1 order by rb.ord`, r.Run.ID)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	var ord int
	var suite, name string
	_, err = pgx.ForEachRow(rows, []any{&ord, &suite, &name}, func() error {
		if b := r.Benchmarks[ord]; b.Suite != suite || b.Name != name {
			return fmt.Errorf("run %s, benchmark %d: stored as %s/%s, is %s/%s", r.Run.ID, ord, suite, name, b.Suite, b.Name)
		}
		n++
		return nil
	})
	if err == nil && n != len(r.Benchmarks) {
		err = fmt.Errorf("run %s: %d run_benchmarks rows, want %d", r.Run.ID, n, len(r.Benchmarks))
	}
	if err != nil {
		t.Error(err)
	}
}

package db

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/tern/v2/migrate"
	"github.com/perfgate/perfgate/tracker/model"
)

// TestMigrateV3KeepsSamples records a run the way version 2 stored it
// (samples in their own table), migrates to version 3 (samples in
// run_benchmarks.vals) and reads it back whole, through the store and
// through the samples view that ad-hoc SQL of version 2 used.
func TestMigrateV3KeepsSamples(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	u := freshDatabase(t)
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	m, err := migrate.NewMigrator(ctx, conn, versionTable)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.LoadMigrations(migrationsFS()); err != nil {
		t.Fatal(err)
	}
	if err := m.MigrateTo(ctx, 2); err != nil {
		t.Fatal(err)
	}
	// Version 2's Record: run_benchmarks rows, and a samples row for each
	// benchmark with samples.
	for _, sql := range []string{
		`insert into testbeds (label, gpu, driver, cuda) values ('gpu-1', 'NVIDIA H100 80GB HBM3', '580.95.05', '13.0')`,
		`insert into benchmarks (suite, name, unit, better, params) values
			('s', 'add/n=1', 'ns', 'lower', '{"n": "1"}'), ('s', 'broken', 'ns', 'lower', '{}')`,
		`insert into runs (id, content_sha256, repo, commit, branch, event, testbed_id, started_at, status)
			values ('v2-run', '\x00', 'acme/kernels', 'c0ffee', 'main', 'push', 1, '2026-03-01 09:00Z', 'partial')`,
		`insert into run_benchmarks (run_pk, benchmark_id, ord, n, median, cv, error) values
			(1, 1, 0, 3, 2, 0.5, null), (1, 2, 1, 0, null, null, 'out of memory')`,
		`insert into samples (run_pk, benchmark_id, vals) values (1, 1, '{3, 1, 2}')`,
	} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%v\n%s", err, sql)
		}
	}
	if res, err := Migrate(ctx, u, nil); err != nil || res != (MigrateResult{From: 2, To: SchemaVersion()}) {
		t.Fatalf("Migrate = %+v, %v", res, err)
	}

	s, err := Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	runs, err := loadRuns(ctx, s.pool, []int64{1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	bs := runs[0].Benchmarks
	if len(bs) != 2 || !slices.Equal(bs[0].Samples, []float64{3, 1, 2}) || bs[1].Samples != nil || bs[1].Error != "out of memory" {
		t.Errorf("run after the upgrade = %+v, want samples [3 1 2] and none for the broken benchmark", bs)
	}
	var vals []float64
	if err := conn.QueryRow(ctx, `select array_agg(v order by i) from samples, unnest(vals) with ordinality as x(v, i)`).Scan(&vals); err != nil || !slices.Equal(vals, []float64{3, 1, 2}) {
		t.Errorf("the samples view = %v, %v; want [3 1 2]", vals, err)
	}
	// A run recorded now sits beside it.
	r := syntheticRun("v3-run", 2, 4, time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC))
	if out, err := s.Record(ctx, r); err != nil || out != model.Recorded {
		t.Fatalf("Record after the upgrade = %v, %v", out, err)
	}
	assertRowCounts(t, s, 2, 4, 3)
}

// TestBenchmarksRowsKept: run_benchmarks names benchmarks rows without a
// foreign key (version 3), so the schema refuses to delete them or change
// their ids.
func TestBenchmarksRowsKept(t *testing.T) {
	t.Parallel()
	s, _ := migratedStore(t)
	ctx := context.Background()
	if out, err := s.Record(ctx, syntheticRun("kept", 2, 3, time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))); err != nil || out != model.Recorded {
		t.Fatalf("Record = %v, %v", out, err)
	}
	for _, sql := range []string{
		"delete from benchmarks",
		"truncate benchmarks cascade",
		"update benchmarks set id = default",
	} {
		_, err := s.pool.Exec(ctx, sql)
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || pgErr.Code != "23001" { // restrict_violation
			t.Errorf("%s: %v, want restrict_violation", sql, err)
		}
	}
}

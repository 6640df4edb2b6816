package db

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/perfgate/perfgate/tracker/model"
)

// TestCrashMidIngest stops the server (pg_ctl stop -m immediate) while a
// run is half written: its run row is in, its run_benchmarks rows (with the
// samples) are blocked on a lock this test holds. After the restart no trace of the
// run may be visible, and recording it again stores it exactly once.
func TestCrashMidIngest(t *testing.T) {
	serverURL(t) // the fault tests run where the DB tests run
	c := newCluster(t)
	ctx := context.Background()
	if _, err := Migrate(ctx, c.URL(), nil); err != nil {
		t.Fatalf("Migrate: %v", err)
	}
	s, err := Open(ctx, c.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	run := syntheticRun("crash-1", 50, 200, time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))

	// Hold run_benchmarks so the ingest stops after the run row.
	blocker, err := pgx.Connect(ctx, c.URL())
	if err != nil {
		t.Fatal(err)
	}
	tx, err := blocker.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "lock table run_benchmarks in access exclusive mode"); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := s.Record(ctx, run); done <- err }()
	waitForLockWait(t, blocker, "run_benchmarks")
	c.stopImmediately(t)

	var ie *model.InfraError
	if err := <-done; !errors.As(err, &ie) {
		t.Fatalf("Record across the crash = %v, want a *model.InfraError", err)
	}
	c.start(t)
	s2, err := Open(ctx, c.URL())
	if err != nil {
		t.Fatalf("Open after restart: %v", err)
	}
	defer s2.Close()
	assertRowCounts(t, s2, 0, 0, 0)

	out, err := s2.Record(ctx, run)
	if err != nil || out != model.Recorded {
		t.Fatalf("retry after restart = %v, %v; want Recorded", out, err)
	}
	if out, err := s2.Record(ctx, run); err != nil || out != model.Duplicate {
		t.Fatalf("second retry = %v, %v; want Duplicate", out, err)
	}
	assertRowCounts(t, s2, 1, 50, 50)
	b, err := s2.Baseline(ctx, model.BaselineQuery{Branch: "main", Testbed: model.FingerprintOf(&run.Run), Jobs: 3})
	if err != nil || len(b.Runs) != 1 || len(b.Runs[0].Benchmarks) != 50 || len(b.Runs[0].Benchmarks[7].Samples) != 200 {
		t.Fatalf("baseline after retry = %+v, %v; want the whole run", b, err)
	}
}

// waitForLockWait waits until some backend waits for a lock on table.
func waitForLockWait(t *testing.T, conn *pgx.Conn, table string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		var n int
		err := conn.QueryRow(context.Background(), `
			select count(*) from pg_locks where not granted and relation = $1::regclass`, table).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no ingest reached the %s table within 30s", table)
}

// assertRowCounts checks how many runs, run_benchmarks and samples rows
// (the view of run_benchmarks rows with samples) the database holds.
func assertRowCounts(t *testing.T, s *Store, runs, benchmarks, samples int) {
	t.Helper()
	var r, b, sm int
	err := s.pool.QueryRow(context.Background(), `select (select count(*) from runs),
		(select count(*) from run_benchmarks), (select count(*) from samples)`).Scan(&r, &b, &sm)
	if err != nil {
		t.Fatal(err)
	}
	if r != runs || b != benchmarks || sm != samples {
		t.Errorf("rows: %d runs, %d run_benchmarks, %d samples; want %d, %d, %d", r, b, sm, runs, benchmarks, samples)
	}
}

// syntheticRun is a main-branch push run of nb benchmarks with ns samples
// each, on an H100 testbed.
func syntheticRun(id string, nb, ns int, at time.Time) *model.Results {
	r := &model.Results{Schema: model.Schema, Run: model.Run{
		ID: id, Repo: "acme/kernels", Commit: fmt.Sprintf("%040d", at.Unix()), Branch: "main",
		Event: model.EventPush, Testbed: "gpu-h100-1", StartedAt: at,
		Env: map[string]string{model.EnvGPU: "NVIDIA H100 80GB HBM3", model.EnvDriver: "580.95.05", model.EnvCUDA: "13.0"},
	}}
	for i := range nb {
		b := model.Benchmark{Suite: "synthetic", Name: fmt.Sprintf("kernel-%04d/n=1048576", i), Unit: "ns", Better: model.Lower,
			Params: map[string]string{"n": "1048576"}, Samples: make([]float64, ns)}
		for j := range b.Samples {
			b.Samples[j] = 1000 + float64(i) + float64((j*7919)%97)/10
		}
		r.Benchmarks = append(r.Benchmarks, b)
	}
	return r
}

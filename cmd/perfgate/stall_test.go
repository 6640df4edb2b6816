package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/perfgate/perfgate/db"
	"github.com/perfgate/perfgate/db/dbtest"
	"github.com/perfgate/perfgate/tracker/spool"
)

// TestStalledDatabase stops (SIGSTOP) the Postgres backend serving record
// and check in the middle of their work, as a wedged server or a dead
// network path without a reset would leave it. Each command must give up
// after --db-timeout with exit 3 and the run spooled, not hang (issue 10,
// item 9).
func TestStalledDatabase(t *testing.T) {
	url := dbtest.FreshDatabase(t)
	ctx := context.Background()
	if _, err := db.Migrate(ctx, url, nil); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	main := writeRuns(t, dir, histRun("m1", 1, 100))
	pr := writeRuns(t, dir, histRun("pr", 2, 100, asPR))[0]
	if _, errOut, code := invoke(t, map[string]string{"PERFGATE_DATABASE_URL": url}, "record", main[0]); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	tests := []struct {
		name, table string // the table whose lock the command waits for when it is stopped
		args        []string
	}{
		{"record", "run_benchmarks", []string{"record", writeRuns(t, dir, histRun("m2", 3, 100))[0]}},
		{"check --record", "runs", []string{"check", "--candidate", pr, "--record"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spoolDir := filepath.Join(t.TempDir(), "spool")
			vars := map[string]string{"PERFGATE_DATABASE_URL": url, "PERFGATE_SPOOL": spoolDir, "PERFGATE_DB_TIMEOUT": "2s"}
			done := make(chan [2]string, 1)
			stopBackendWhileWaiting(t, url, tt.table, func() {
				go func() {
					_, errOut, code := invoke(t, vars, tt.args...)
					done <- [2]string{fmt.Sprint(code), errOut}
				}()
			})
			select {
			case got := <-done:
				left, _ := spool.Files(spoolDir)
				if got[0] != "3" || len(left) != 1 || !strings.Contains(got[1], "did not answer within 2s") {
					t.Errorf("exit %s, stderr %q, spooled %v; want 3, the deadline named, the run spooled", got[0], got[1], left)
				}
			case <-time.After(60 * time.Second):
				t.Fatalf("%s still running 60 s after its backend stopped (--db-timeout 2s)", tt.name)
			}
		})
	}
}

// stopBackendWhileWaiting holds an exclusive lock on table, calls start,
// waits for a backend to queue on the lock, stops it with SIGSTOP and
// releases the lock. The backend is continued when the test ends. It skips
// when the server's processes cannot be signalled from here.
func stopBackendWhileWaiting(t *testing.T, url, table string, start func()) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(ctx) })
	var self int
	if err := conn.QueryRow(ctx, "select pg_backend_pid()").Scan(&self); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", self)); err != nil || !strings.Contains(string(b), "postgres") {
		t.Skipf("the Postgres server is not a local process this test can signal (backend %d): %v", self, err)
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "lock table "+table+" in access exclusive mode"); err != nil {
		t.Fatal(err)
	}
	start()
	var pid int
	for deadline := time.Now().Add(30 * time.Second); pid == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no backend queued on the %s lock within 30 s", table)
		}
		err := conn.QueryRow(ctx, `select coalesce(min(pid), 0) from pg_locks where not granted and relation = $1::regclass`, table).Scan(&pid)
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Skipf("cannot stop backend %d: %v", pid, err)
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGCONT) })
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
}

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/db"
	"github.com/perfgate/perfgate/db/dbtest"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/spool"
)

// The commands over a real Postgres (PERFGATE_TEST_DATABASE_URL; see
// db/dbtest): migrate, record, check --record, trend, prune, and spooling
// while the database is unreachable or not migrated.

func TestPostgresCommands(t *testing.T) {
	url := dbtest.FreshDatabase(t)
	dir := t.TempDir()
	spoolDir := filepath.Join(dir, "spool")
	vars := map[string]string{"PERFGATE_DATABASE_URL": url, "PERFGATE_SPOOL": spoolDir}
	main := writeRuns(t, dir, histRun("m1", 1, 100), histRun("m2", 2, 101), histRun("m3", 3, 100))
	pr := writeRuns(t, dir, histRun("pr", 4, 130, asPR))[0]

	// Not migrated yet: a schema error, not an outage: record refuses,
	// exits 3 and says to migrate; nothing is spooled (issue 11, defect 9).
	_, errOut, code := invoke(t, vars, append([]string{"record"}, main...)...)
	if left, _ := spool.Files(spoolDir); code != cli.ExitInfra || !strings.Contains(errOut, "perfgate migrate") || strings.Contains(errOut, "wait in") || len(left) != 0 {
		t.Fatalf("record before migrate: exit %d, stderr %q, spooled %v; want 3, the migrate hint and nothing spooled", code, errOut, left)
	}
	out, errOut, code := invoke(t, vars, "migrate")
	if code != 0 || !strings.Contains(out, "schema migrated from version 0 to 5") {
		t.Fatalf("migrate: exit %d, %q %q", code, out, errOut)
	}
	if out, _, code := invoke(t, vars, "migrate"); code != 0 || !strings.Contains(out, "already at version 5") {
		t.Errorf("migrate again: exit %d, %q; want a no-op", code, out)
	}
	if out, errOut, code := invoke(t, vars, append([]string{"record"}, main...)...); code != 0 || strings.Count(out, ": recorded run") != 3 {
		t.Fatalf("record after migrate: exit %d, %q %q; want 3 runs recorded", code, out, errOut)
	}

	out, errOut, code = invoke(t, vars, "check", "--candidate", pr, "--record", "--format", "json")
	if code != cli.ExitRegression {
		t.Fatalf("check: exit %d, stderr %q; want 1 (a 30%% slowdown)", code, errOut)
	}
	var rep struct {
		BaselineRuns []model.RunRef `json:"baseline_runs"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.BaselineRuns) != 3 || rep.BaselineRuns[0].ID != "m3" {
		t.Errorf("check JSON baseline_runs = %+v (%v), want m3, m2, m1", rep.BaselineRuns, err)
	}
	assertStoredComparison(t, url, "pr", []string{"m3", "m2", "m1"})

	out, errOut, code = invoke(t, vars, "trend", "--benchmark", "add/*/*/*", "--since", "0", "--format", "json")
	if code != 0 {
		t.Fatalf("trend: exit %d, %q", code, errOut)
	}
	var tr struct {
		Series []struct {
			Points []model.TrendPoint `json:"points"`
		} `json:"series"`
	}
	if err := json.Unmarshal([]byte(out), &tr); err != nil || len(tr.Series) != 1 || len(tr.Series[0].Points) != 3 {
		t.Errorf("trend JSON = %s (%v); want one series of the 3 main runs (the PR run is no baseline)", out, err)
	}

	out, errOut, code = invoke(t, vars, "prune", "--older-than", "1d", "--keep", "1", "--dry-run")
	if code != 0 || !strings.Contains(out, "would delete 3 run(s) (90 samples)") {
		t.Errorf("prune --dry-run: exit %d, %q %q; want 3 runs (m1, m2 and the PR run)", code, out, errOut)
	}
}

// assertStoredComparison checks the comparison stored for candidate.
func assertStoredComparison(t *testing.T, url, candidate string, baseline []string) {
	t.Helper()
	s, err := db.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cs, err := s.Comparisons(context.Background(), candidate)
	if err != nil || len(cs) != 1 {
		t.Fatalf("stored comparisons of %s: %d, %v; want 1", candidate, len(cs), err)
	}
	var ids []string
	for _, r := range cs[0].Baseline {
		ids = append(ids, r.ID)
	}
	if fmt.Sprint(ids) != fmt.Sprint(baseline) || !cs[0].Failed || len(cs[0].Results) != 1 || cs[0].Results[0].Verdict != "regression" {
		t.Errorf("stored comparison = baseline %v, failed %v, results %+v; want %v, a regression", ids, cs[0].Failed, cs[0].Results, baseline)
	}
}

func TestSpoolWhileUnreachable(t *testing.T) {
	dir := t.TempDir()
	spoolDir := filepath.Join(dir, "spool")
	down := map[string]string{"PERFGATE_DATABASE_URL": unreachableURL(t), "PERFGATE_SPOOL": spoolDir}
	files := writeRuns(t, dir, histRun("m1", 1, 100), histRun("m2", 2, 100))
	pr := writeRuns(t, dir, histRun("pr", 3, 100, asPR))[0]

	_, errOut, code := invoke(t, down, "record", files[0], files[1])
	if code != cli.ExitInfra || !strings.Contains(errOut, "connect to database") || !strings.Contains(errOut, "2 run(s) wait in") {
		t.Fatalf("record while down: exit %d, stderr %q; want 3 and two spooled runs", code, errOut)
	}
	// check without --record was not asked to store anything: it fails
	// (exit 3) and spools nothing (issue 11, defect 9); with --record the
	// candidate waits in the spool.
	_, errOut, code = invoke(t, down, "check", "--candidate", pr)
	if left, _ := spool.Files(spoolDir); code != cli.ExitInfra || strings.Contains(errOut, "wait in") || len(left) != 2 {
		t.Fatalf("check while down: exit %d, stderr %q, %d spooled; want 3 and nothing more spooled", code, errOut, len(left))
	}
	_, errOut, code = invoke(t, down, "check", "--candidate", pr, "--record")
	if code != cli.ExitInfra || !strings.Contains(errOut, "1 run(s) wait in") {
		t.Fatalf("check --record while down: exit %d, stderr %q; want 3 and the candidate spooled", code, errOut)
	}
	_, errOut, code = invoke(t, down, "upload")
	if left, _ := spool.Files(spoolDir); code != cli.ExitInfra || len(left) != 3 {
		t.Fatalf("upload while still down: exit %d (%q), %d files left; want 3 and all 3 kept", code, errOut, len(left))
	}

	url := dbtest.FreshDatabase(t)
	if _, err := db.Migrate(context.Background(), url, nil); err != nil {
		t.Fatal(err)
	}
	up := map[string]string{"PERFGATE_DATABASE_URL": url, "PERFGATE_SPOOL": spoolDir}
	if out, errOut, code := invoke(t, up, "upload"); code != 0 || strings.Count(out, "uploaded run") != 3 {
		t.Fatalf("upload: exit %d, %q %q; want 3 uploaded", code, out, errOut)
	}
	if out, _, code := invoke(t, up, "upload"); code != 0 || !strings.Contains(out, "nothing to upload") {
		t.Errorf("second upload: exit %d, %q; want nothing to do", code, out)
	}
	// The same run spooled twice (two jobs, or a retry) is sent once.
	invoke(t, down, "record", files[0])
	if out, _, code := invoke(t, up, "upload"); code != 0 || !strings.Contains(out, "already in the database run m1") {
		t.Errorf("upload of a run sent before: exit %d, %q; want 'already in the database'", code, out)
	}
	// A spooled run that conflicts with the database stays, with exit 2.
	if _, err := spool.Write(spoolDir, []*model.Results{histRun("m2", 2, 150)}); err != nil {
		t.Fatal(err)
	}
	_, errOut, code = invoke(t, up, "upload")
	if left, _ := spool.Files(spoolDir); code != cli.ExitBadInput || !strings.Contains(errOut, "already recorded with different content") || len(left) != 1 {
		t.Errorf("upload of a conflicting run: exit %d, %q, %d left; want 2, the conflict, the file kept", code, errOut, len(left))
	}
	// An unreadable spooled file stays too, named once, and the good runs
	// beside it are still sent.
	corrupt := filepath.Join(spoolDir, "corrupt.json")
	if err := os.WriteFile(corrupt, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := spool.Write(spoolDir, []*model.Results{histRun("m3", 4, 100)}); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := invoke(t, up, "upload")
	left, _ := spool.Files(spoolDir)
	if code != cli.ExitBadInput || strings.Count(errOut, corrupt) != 1 || len(left) != 2 || !strings.Contains(out, "uploaded run m3") {
		t.Errorf("upload with a corrupt file: exit %d, stdout %q, stderr %q, %d left; want 2, the file named once, m3 sent, 2 kept",
			code, out, errOut, len(left))
	}
}

// unreachableURL is a database URL on a loopback port nothing listens on.
func unreachableURL(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/perfgate?sslmode=disable&connect_timeout=5", port)
}

func TestPostgresUsageErrors(t *testing.T) {
	dir := t.TempDir()
	bad := map[string]string{"PERFGATE_DATABASE_URL": "postgres://[::1"}
	cases := []struct {
		name string
		vars map[string]string
		args []string
		want string
	}{
		{"migrate without db", nil, []string{"migrate"}, "--db:"},
		{"migrate malformed URL", bad, []string{"migrate"}, "--db: invalid database URL"},
		{"record malformed URL", bad, []string{"record", writeRuns(t, dir, histRun("x", 1, 1))[0]}, "--db: invalid database URL"},
		{"upload without db", nil, []string{"upload"}, "--db:"},
		{"trend without benchmark", nil, []string{"trend"}, "--benchmark:"},
		{"trend bad since", nil, []string{"trend", "--benchmark", "*", "--since", "9q"}, `--since: "9q" is not an age`},
		{"trend bad format", nil, []string{"trend", "--benchmark", "*", "--format", "xml"}, "--format:"},
		{"trend bad pattern", nil, []string{"trend", "--benchmark", "[x"}, "--benchmark:"},
		{"prune without age", nil, []string{"prune"}, "--older-than:"},
		{"prune bad age", nil, []string{"prune", "--older-than", "a year"}, `--older-than: "a year" is not an age`},
		{"prune negative keep", nil, []string{"prune", "--older-than", "1d", "--keep", "-1"}, "--keep:"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, errOut, code := invoke(t, c.vars, c.args...)
			if code != cli.ExitBadInput || !strings.Contains(errOut, c.want) {
				t.Errorf("exit %d, stderr %q; want 2 naming %q", code, errOut, c.want)
			}
		})
	}
	if _, err := os.Stat(spool.DefaultDir); err == nil {
		t.Errorf("a usage error left a spool directory behind")
	}
}

// TestSpoolWhenRecordFails breaks the database under a migrated schema (its
// run_benchmarks table is gone), so the failure comes in the middle of recording:
// the runs are spooled all the same, and nothing half-written is visible.
func TestSpoolWhenRecordFails(t *testing.T) {
	url := dbtest.FreshDatabase(t)
	ctx := context.Background()
	if _, err := db.Migrate(ctx, url, nil); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "drop table run_benchmarks cascade"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	spoolDir := filepath.Join(dir, "spool")
	files := writeRuns(t, dir, histRun("m1", 1, 100))
	_, errOut, code := invoke(t, map[string]string{"PERFGATE_DATABASE_URL": url}, "record", "--spool", spoolDir, files[0])
	if left, _ := spool.Files(spoolDir); code != cli.ExitInfra || len(left) != 1 || !strings.Contains(errOut, "record run m1") {
		t.Fatalf("record into a broken database: exit %d, stderr %q, spooled %v; want 3 and the run spooled", code, errOut, left)
	}
	var runs int
	if err := conn.QueryRow(ctx, "select count(*) from runs").Scan(&runs); err != nil || runs != 0 {
		t.Errorf("runs visible after the failed record: %d (%v), want 0", runs, err)
	}
}

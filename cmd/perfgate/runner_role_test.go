package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/db"
	"github.com/perfgate/perfgate/db/dbtest"
	"github.com/perfgate/perfgate/tracker/model"
)

// runnerGrants returns the SQL of docs/runner.md's grants block, with the
// role and database renamed.
func runnerGrants(t *testing.T, role, database string) []string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "runner.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)<!-- grants:begin[^>]*-->\n```sql\n(.*?)```\n<!-- grants:end -->").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/runner.md has no grants block")
	}
	var out []string
	for _, stmt := range strings.Split(string(m[1]), ";") {
		if stmt = strings.TrimSpace(stmt); stmt != "" {
			stmt = regexp.MustCompile(`\bperfgate_runner\b`).ReplaceAllString(stmt, role)
			stmt = regexp.MustCompile(`\bdatabase perfgate\b`).ReplaceAllString(stmt, "database "+database)
			out = append(out, stmt)
		}
	}
	if len(out) < 5 {
		t.Fatalf("docs/runner.md's grants block has %d statements", len(out))
	}
	return out
}

// TestRunnerRoleGrants runs docs/runner.md's role and grants on a real
// PostgreSQL server, after the owner migrated, and then uses only that
// role: record three main-branch runs, check a 30% slower pull request
// with --record, read the trend, build the dashboard and prune. The role
// cannot drop or create a table (issue 30: the guide's grants, tested).
func TestRunnerRoleGrants(t *testing.T) {
	owner := dbtest.FreshDatabase(t)
	ctx := context.Background()
	if _, errOut, code := invoke(t, map[string]string{"PERFGATE_DATABASE_URL": owner}, "migrate"); code != 0 {
		t.Fatalf("migrate as the owner: exit %d, %s", code, errOut)
	}
	conn, err := pgx.Connect(ctx, owner)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var database string
	if err := conn.QueryRow(ctx, "select current_database()").Scan(&database); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 4)
	rand.Read(b)
	role := "perfgate_runner_" + hex.EncodeToString(b)
	t.Cleanup(func() {
		// Roles are the cluster's: drop this one's grants, then it.
		c, err := pgx.Connect(ctx, owner)
		if err != nil {
			t.Error(err)
			return
		}
		defer c.Close(ctx)
		for _, q := range []string{"drop owned by " + role, "revoke connect on database " + database + " from " + role, "drop role " + role} {
			if _, err := c.Exec(ctx, q); err != nil {
				t.Errorf("%s: %v", q, err)
			}
		}
	})
	for _, stmt := range runnerGrants(t, role, database) {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	u, err := url.Parse(owner)
	if err != nil || u.Scheme != "postgres" {
		t.Skipf("the test server's URL is not a postgres:// URL: %v", err)
	}
	u.User = url.UserPassword(role, "CHANGE-ME")
	asRole := u.String()

	dir := t.TempDir()
	vars := map[string]string{"PERFGATE_DATABASE_URL": asRole, "PERFGATE_SPOOL": filepath.Join(dir, "spool")}
	main := writeRuns(t, dir, histRun("m1", 1, 100), histRun("m2", 2, 101), histRun("m3", 3, 100))
	pr := writeRuns(t, dir, histRun("pr", 4, 130, asPR))[0]
	if out, errOut, code := invoke(t, vars, append([]string{"record"}, main...)...); code != 0 || strings.Count(out, ": recorded run") != 3 {
		t.Fatalf("record as %s: exit %d, %q %q", role, code, out, errOut)
	}
	if _, errOut, code := invoke(t, vars, "check", "--candidate", pr, "--record"); code != cli.ExitRegression {
		t.Fatalf("check --record as %s: exit %d, %q; want 1 (a 30%% slowdown)", role, code, errOut)
	}
	assertStoredComparison(t, asRole, "pr", []string{"m3", "m2", "m1"})
	if out, errOut, code := invoke(t, vars, "trend", "--benchmark", "add/*/*/*", "--since", "0", "--format", "json"); code != 0 || !strings.Contains(out, `"points"`) {
		t.Errorf("trend as %s: exit %d, %q", role, code, errOut)
	}
	if _, errOut, code := invoke(t, vars, "site", "--since", "0", "--out", filepath.Join(dir, "site")); code != 0 {
		t.Errorf("site as %s: exit %d, %q", role, code, errOut)
	}
	if out, errOut, code := invoke(t, vars, "prune", "--older-than", "1d", "--keep", "1"); code != 0 || !strings.Contains(out, "deleted 3 run(s)") {
		t.Errorf("prune as %s: exit %d, %q %q; want m1, m2 and the PR run deleted", role, code, out, errOut)
	}
	// The steering the runner does: /perfgate accept records an
	// acceptance, the merge's push a reset (as baseline reset does by hand).
	if out, errOut, code := invoke(t, vars, "baseline", "reset", "add/*", "--reason", "accepted on #4", "--repo", "o/r"); code != 0 || !strings.Contains(out, "baseline reset") {
		t.Errorf("baseline reset as %s: exit %d, %q %q", role, code, out, errOut)
	}
	st, err := db.Open(ctx, asRole)
	if err != nil {
		t.Fatal(err)
	}
	a := model.Acceptance{Repo: "o/r", PR: 4, Glob: "add/*", Who: "octocat", At: time.Now()}
	if err := st.AddAcceptance(ctx, a); err != nil {
		t.Errorf("record an acceptance as %s: %v", role, err)
	} else if got, err := st.Acceptances(ctx, "o/r", 4); err != nil || len(got) != 1 {
		t.Errorf("read the acceptances as %s: %v, %v", role, got, err)
	}
	st.Close()
	if left, _ := filepath.Glob(filepath.Join(dir, "spool", "*")); len(left) != 0 {
		t.Errorf("runs spooled instead of stored: %v", left)
	}
	rc, err := pgx.Connect(ctx, asRole)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close(ctx)
	for _, q := range []string{"drop table comparison_results", "create table extra (x int)", "delete from benchmarks"} {
		if _, err := rc.Exec(ctx, q); err == nil {
			t.Errorf("%s as %s succeeded; the role must not change the schema or delete benchmarks", q, role)
		}
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/spool"
)

// TestSecretsNeverPrinted runs every command that takes a database URL,
// and the action, with URLs whose password is "S3cret…": unparseable (an
// '@' and a '%' in the password), unreachable, and in key=value form. No
// line of any output, the job summary or the outputs file may hold the
// password, except the action's ::add-mask:: lines (item 6).
func TestSecretsNeverPrinted(t *testing.T) {
	port := strings.TrimSuffix(strings.Split(unreachableURL(t), ":")[2], "/perfgate?sslmode=disable&connect_timeout=5")
	urls := map[string]string{
		"unparseable": "postgres://perf:p@ss%word-S3cret@127.0.0.1:" + port + "/perf",
		"unreachable": "postgres://perf:S3cret-pw@127.0.0.1:" + port + "/perf?sslmode=disable&connect_timeout=2",
		"key=value":   "host=127.0.0.1 port=" + port + " user=perf password=S3cret-kv dbname=perf connect_timeout=2",
		"bad option":  "postgres://perf:S3cret-opt@127.0.0.1:" + port + "/perf?sslmode=bogus",
	}
	dir := t.TempDir()
	run := writeRuns(t, dir, histRun("m1", 1, 100))[0]
	pr := writeRuns(t, dir, histRun("pr", 2, 100, asPR))[0]
	for name, url := range urls {
		t.Run(name, func(t *testing.T) {
			spoolDir := filepath.Join(t.TempDir(), "spool")
			if _, err := spool.Write(spoolDir, []*model.Results{histRun("s1", 3, 100)}); err != nil {
				t.Fatal(err)
			}
			vars := map[string]string{"PERFGATE_DATABASE_URL": url, "PERFGATE_SPOOL": spoolDir}
			for _, args := range [][]string{{"migrate"}, {"record", run}, {"check", "--candidate", pr}, {"upload"},
				{"trend", "--benchmark", "*"}, {"prune", "--older-than", "1d"}} {
				out, errOut, code := invoke(t, vars, args...)
				if code == 0 {
					t.Errorf("%s succeeded against a database that is not there", args[0])
				}
				assertNoSecret(t, args[0], out+errOut)
			}
			avars := actionVars(t, "push", "push.json", "refs/heads/master", map[string]string{"results-file": run, "database-url": url})
			avars["PERFGATE_SPOOL"] = spoolDir
			code, out, errOut := runActionInProcess(t, avars)
			if code != cli.ExitInfra && code != cli.ExitBadInput {
				t.Errorf("action: exit %d, want 2 or 3", code)
			}
			if !strings.HasPrefix(out, "::add-mask::") {
				t.Errorf("action: the password is not masked first:\n%s", out)
			}
			summary, _ := os.ReadFile(avars["GITHUB_STEP_SUMMARY"])
			outputs, _ := os.ReadFile(avars["GITHUB_OUTPUT"])
			assertNoSecret(t, "action", out+errOut+string(summary)+string(outputs))
		})
	}
}

// assertNoSecret fails when a line other than an ::add-mask:: command
// holds part of a password of TestSecretsNeverPrinted.
func assertNoSecret(t *testing.T, what, text string) {
	t.Helper()
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "::add-mask::") {
			continue
		}
		for _, frag := range []string{"S3cret", "ss%word", "p@ss"} {
			if strings.Contains(line, frag) {
				t.Errorf("%s printed %q: %s", what, frag, line)
			}
		}
	}
}

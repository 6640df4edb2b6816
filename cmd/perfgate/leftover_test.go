package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/fakegithub"
	"github.com/perfgate/perfgate/db"
	"github.com/perfgate/perfgate/db/dbtest"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// TestStoreLeftoversRemoved plants the temporary files a writer killed
// mid-write (kill -9) leaves in the embedded store, where they once stayed
// forever: the next record, and prune, remove them (issue 10, item 13).
func TestStoreLeftoversRemoved(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	vars := map[string]string{"PERFGATE_STORE": store}
	files := writeRuns(t, dir, histRun("m1", 1, 100), histRun("m2", 2, 100))
	if _, errOut, code := invoke(t, vars, "record", files[0]); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	plant := func() []string {
		var paths []string
		for _, p := range []string{filepath.Join(store, "runs", ".m9.json.tmp3141592"), filepath.Join(store, ".index.tsv.tmp2718")} {
			if err := os.WriteFile(p, []byte(strings.Repeat("x", 1<<20)), 0o644); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, p)
		}
		return paths
	}
	for _, args := range [][]string{{"record", files[1]}, {"prune", "--older-than", "3650d"}} {
		left := plant()
		if _, errOut, code := invoke(t, vars, args...); code != 0 {
			t.Fatalf("%s: exit %d: %s", args[0], code, errOut)
		}
		for _, p := range left {
			if _, err := os.Stat(p); err == nil {
				t.Errorf("%s left %s in place", args[0], p)
			}
		}
	}
	if got := storedRuns(t, store); len(got) != 2 {
		t.Errorf("runs %v after the clean-ups, want both", got)
	}
}

// TestActionSummaryAndSecrets judges 10⁴ benchmarks, one named after the
// token and one whose error quotes the database password, as a command's
// output might: the job summary stays under GitHub's 1 MiB, and neither
// secret reaches the comment, the summary or the report (issue 10, item 14).
func TestActionSummaryAndSecrets(t *testing.T) {
	if testing.Short() {
		t.Skip("renders 10⁴ benchmarks twice (13.6 s under -race at load 5-11, 4.4 s without); .ci/run runs it without -race")
	}
	const token, password = "ghs_tok", "pw-S3cret-42"
	dir := t.TempDir()
	r := &model.Results{Schema: model.Schema, Run: model.Run{ID: "big", Repo: e2eRepo, Commit: e2eHeadSHA, Branch: "changes",
		PR: e2ePR, Event: model.EventPullRequest, Testbed: "t", StartedAt: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}}
	for i := range 10000 {
		r.Benchmarks = append(r.Benchmarks, model.Benchmark{Suite: "many", Name: fmt.Sprintf("benchmark-with-a-long-enough-name/case=%05d", i),
			Unit: "ns", Better: model.Lower, Samples: []float64{10, 11, 12, 13, 14}})
	}
	r.Benchmarks[0].Name = "leak/" + token
	r.Benchmarks[1].Samples, r.Benchmarks[1].Error = []float64{}, "connect postgres://perf:"+password+"@db/perf: refused"
	path := filepath.Join(dir, "big.json")
	if err := resultsjson.WriteFile(path, r); err != nil {
		t.Fatal(err)
	}
	// The test server trusts local connections, so any password works.
	url := dbtest.FreshDatabase(t)
	if _, err := db.Migrate(context.Background(), url, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(url, "postgres://postgres@") {
		t.Skipf("cannot add a password to %s", url)
	}
	url = strings.Replace(url, "postgres://postgres@", "postgres://postgres:"+password+"@", 1)
	fake := fakegithub.New(t, token)
	vars := prVars(t, fake, path, map[string]string{"github-token": token, "database-url": url})
	vars["PERFGATE_SPOOL"] = filepath.Join(dir, "spool")
	code, _, stderr := runActionInProcess(t, vars)
	if code != 0 {
		t.Errorf("exit %d\n%s", code, stderr)
	}
	summary := readFile(t, vars["GITHUB_STEP_SUMMARY"])
	if len(summary) > 1<<20 || !strings.Contains(summary, "The full report is in") {
		t.Errorf("summary of %d bytes (limit %d), pointer present: %v", len(summary), 1<<20, strings.Contains(summary, "The full report is in"))
	}
	report := readFile(t, filepath.Join(vars["RUNNER_TEMP"], "perfgate-report.md"))
	var comment string
	for _, c := range fake.Comments("Codertocat", "Hello-World", e2ePR) {
		comment += c.Body
	}
	for name, text := range map[string]string{"summary": summary, "report": report, "comment": comment} {
		if strings.Contains(text, token) || strings.Contains(text, password) {
			t.Errorf("the %s holds a secret", name)
		}
		if !utf8.ValidString(text) {
			t.Errorf("the %s is not valid UTF-8", name)
		}
	}
	if !strings.Contains(report, "***") {
		t.Errorf("the report shows no redacted secret (the error benchmark quotes the password)")
	}
}

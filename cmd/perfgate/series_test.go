package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/db/dbtest"
	"github.com/perfgate/perfgate/tracker/model"
)

// TestMetricChangeStartsSeries records a suite's history in us, then
// switches its metric (cpu-ns/op, as a command suite's metric: key does)
// and checks, on the embedded store and on Postgres, that the first pull
// request after the switch is insufficient (a new series), not an error,
// that once a push recorded the new metric the next pull request is judged
// against that push alone, and that trend keeps both series (issue 27).
func TestMetricChangeStartsSeries(t *testing.T) {
	stores := eachStore()
	cpu := func(r *model.Results) { r.Benchmarks[0].Unit = "cpu-ns/op" }
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			vars, dir := open(t), t.TempDir()
			old := writeRuns(t, dir, histRun("m1", 1, 100), histRun("m2", 2, 101), histRun("m3", 3, 100))
			if _, errOut, code := invoke(t, vars, append([]string{"record"}, old...)...); code != 0 {
				t.Fatalf("record: exit %d: %s", code, errOut)
			}
			pr := writeRuns(t, dir, histRun("pr", 5, 100000, asPR, cpu))[0]
			check := func() (verdict, reason string, nBase int) {
				t.Helper()
				return checkOne(t, vars, cli.ExitOK, "--candidate", pr)
			}
			if v, reason, _ := check(); v != "insufficient" || !strings.Contains(reason, "a new series: no baseline run in cpu-ns/op yet (the earlier runs are in us") {
				t.Errorf("first PR after the switch: %s %q, want insufficient, a new series", v, reason)
			}
			push := writeRuns(t, dir, histRun("m4", 4, 100000, cpu))
			if _, errOut, code := invoke(t, vars, append([]string{"record"}, push...)...); code != 0 {
				t.Fatalf("record m4: exit %d: %s", code, errOut)
			}
			if v, reason, n := check(); v == "error" || v == "insufficient" || n != 30 {
				t.Errorf("PR after a push in cpu-ns/op: %s %q against %d baseline samples, want a verdict against m4's 30", v, reason, n)
			}
			out, errOut, code := invoke(t, vars, "trend", "--benchmark", "*", "--format", "csv")
			if code != 0 || !strings.Contains(out, "cpu-ns/op") || !strings.Contains(out, ",us,") {
				t.Errorf("trend: exit %d, stderr %q; want both series:\n%s", code, errOut, out)
			}
		})
	}
}

// eachStore gives, by name, a function that makes a fresh store of each kind
// for a test's perfgate commands: the embedded store in a temporary folder,
// and a fresh Postgres database, migrated.
func eachStore() map[string]func(t *testing.T) map[string]string {
	return map[string]func(t *testing.T) map[string]string{
		"filestore": func(t *testing.T) map[string]string {
			return map[string]string{"PERFGATE_STORE": filepath.Join(t.TempDir(), "store")}
		},
		"postgres": func(t *testing.T) map[string]string {
			vars := map[string]string{"PERFGATE_DATABASE_URL": dbtest.FreshDatabase(t)}
			if _, errOut, code := invoke(t, vars, "migrate"); code != 0 {
				t.Fatalf("migrate: exit %d: %s", code, errOut)
			}
			return vars
		},
	}
}

// checkOne runs perfgate check --format json with args on a candidate of
// one benchmark, fails the test unless it exits wantCode, and returns that
// benchmark's verdict, reason and baseline sample count.
func checkOne(t *testing.T, vars map[string]string, wantCode int, args ...string) (verdict, reason string, nBase int) {
	t.Helper()
	out, errOut, code := invoke(t, vars, append(append([]string{"check"}, args...), "--format", "json")...)
	if code != wantCode {
		t.Fatalf("check: exit %d, want %d: %s", code, wantCode, errOut)
	}
	var rep struct {
		Benchmarks []struct {
			Verdict, Reason string
			NBaseline       int `json:"n_baseline"`
		} `json:"benchmarks"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Benchmarks) != 1 {
		t.Fatalf("check JSON: %v\n%s", err, out)
	}
	b := rep.Benchmarks[0]
	return b.Verdict, b.Reason, b.NBaseline
}

package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/tracker/model"
)

// TestBaselineReset: on the embedded store and on Postgres, a pull request
// 30% slower than main's level is a regression; after perfgate baseline
// reset (the slowdown was intended) and three pushes at the new level, a
// pull request at that level is judged against the new level alone (90
// samples of 3 jobs, not 150 of 5 with --baseline-jobs 5) and is
// unchanged; trend still shows the old runs and marks the reset (issue 27).
func TestBaselineReset(t *testing.T) {
	stores := eachStore()
	later := func(h int) func(*model.Results) {
		return func(r *model.Results) { r.Run.StartedAt = time.Now().UTC().Add(time.Duration(h) * time.Hour) }
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			vars, dir := open(t), t.TempDir()
			vars["GITHUB_ACTOR"] = "octocat"
			record := func(runs ...*model.Results) {
				t.Helper()
				if _, errOut, code := invoke(t, vars, append([]string{"record"}, writeRuns(t, dir, runs...)...)...); code != 0 {
					t.Fatalf("record: exit %d: %s", code, errOut)
				}
			}
			record(histRun("m1", 1, 100), histRun("m2", 2, 101), histRun("m3", 3, 100))
			pr := writeRuns(t, dir, histRun("pr", 50, 130, asPR, later(50)))[0]
			var reason string
			check := func(wantCode int) (verdict string, nBase int) {
				t.Helper()
				verdict, reason, nBase = checkOne(t, vars, wantCode, "--candidate", pr, "--baseline-jobs", "5")
				return verdict, nBase
			}
			if v, _ := check(cli.ExitRegression); v != "regression" {
				t.Fatalf("before the reset: %s, want regression", v)
			}
			out, errOut, code := invoke(t, vars, "baseline", "reset", "elementwise/add/*", "--reason", "fp64 accumulation: correct, and slower")
			if code != 0 || !strings.Contains(out, `baseline reset "elementwise/add/*"`) || !strings.Contains(out, `by "octocat"`) {
				t.Fatalf("baseline reset: exit %d, %q %q", code, out, errOut)
			}
			today := time.Now().UTC().Format(time.DateOnly)
			wantWhy := "baseline reset " + today + " by octocat: no baseline run since (fp64 accumulation: correct, and slower)"
			if v, n := check(cli.ExitOK); v != "insufficient" || n != 0 || reason != wantWhy {
				t.Errorf("right after the reset: %s %q against %d samples, want insufficient %q against none", v, reason, n, wantWhy)
			}
			for i := range 3 {
				record(histRun(fmt.Sprintf("n%d", i), 10+i, 130, later(10+i)))
			}
			if v, n := check(cli.ExitOK); v != "unchanged" || n != 90 {
				t.Errorf("after 3 pushes at the new level: %s against %d samples, want unchanged against 90 (3 jobs)", v, n)
			}
			out, _, code = invoke(t, vars, "trend", "--benchmark", "*", "--format", "csv")
			if code != 0 || strings.Count(out, "\n") < 7 {
				t.Errorf("trend after the reset: exit %d, want all 6 runs kept:\n%s", code, out)
			}
			out, _, code = invoke(t, vars, "trend", "--benchmark", "*", "--since", "0")
			if code != 0 || !strings.Contains(out, "by octocat (fp64 accumulation: correct, and slower): earlier runs feed no baseline") {
				t.Errorf("trend's table does not mark the reset: exit %d\n%s", code, out)
			}
		})
	}
}

// TestBaselineResetUsage: bad arguments are exit 2 and nothing is stored.
func TestBaselineResetUsage(t *testing.T) {
	store := mainHistory(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"baseline"}, "baseline reset GLOB"},
		{[]string{"baseline", "reset"}, "name one benchmark GLOB"},
		{[]string{"baseline", "reset", "gemm/["}, "bad pattern"},
		{[]string{"baseline", "reset", "gemm", "--reason", "a\x1b[31m"}, "control characters"},
	} {
		_, errOut, code := invoke(t, map[string]string{"PERFGATE_STORE": store}, c.args...)
		if code != cli.ExitBadInput || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 saying %q", c.args, code, errOut, c.want)
		}
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/tracker/model"
)

// TestCheckConfig checks that a .perfgate.yml's baseline section and
// statistics settings are check's defaults, and that flags and PERFGATE_*
// variables win over it.
func TestCheckConfig(t *testing.T) {
	store := mainHistory(t)
	dir := t.TempDir()
	writeCfg := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("suites:\n  - name: x\n    command:\n      run: \"true\"\n      format: gotest\n"+body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	jobs2 := writeCfg("jobs2.yml", "baseline:\n  jobs: 2\n")
	runs2 := writeCfg("runs2.yml", "baseline:\n  runs: 2\n") // the deprecated name of jobs
	trunk := writeCfg("trunk.yml", "baseline:\n  branch: trunk\n")
	loose := writeCfg("loose.yml", "thresholds:\n  default: 50%\n")
	otherBed := writeCfg("testbed.yml", "baseline:\n  testbed: gpu-h100-1\n")
	strict := writeCfg("strict.yml", "thresholds:\n  inconclusive: fail\n")
	same := writeRuns(t, t.TempDir(), histRun("pr-same", 10, 100, asPR))[0]
	slow := writeRuns(t, t.TempDir(), histRun("pr-slow", 10, 125, asPR))[0]
	// The same H100, on another runner label: incomparable unless the
	// config says which testbed the baselines come from.
	moved := writeRuns(t, t.TempDir(), histRun("pr-moved", 10, 125, asPR, func(r *model.Results) { r.Run.Testbed = "gpu-h100-pr" }))[0]
	cases := []struct {
		name     string
		args     []string
		env      map[string]string
		wantCode int
		wantRuns string
		wantErr  string
	}{
		{"baseline.jobs", []string{"--candidate", same, "--config", jobs2}, nil, cli.ExitOK, "h4 h3", ""},
		{"--baseline-jobs wins", []string{"--candidate", same, "--config", jobs2, "--baseline-jobs", "4"}, nil, cli.ExitOK, "h4 h3 h2 h1", ""},
		{"PERFGATE_BASELINE_JOBS wins", []string{"--candidate", same, "--config", jobs2}, map[string]string{"PERFGATE_BASELINE_JOBS": "1"}, cli.ExitOK, "h4", ""},
		{"PERFGATE_CONFIG", []string{"--candidate", same}, map[string]string{"PERFGATE_CONFIG": jobs2}, cli.ExitOK, "h4 h3", ""},
		// The old names of baseline-jobs still work, each saying once that it is deprecated.
		{"baseline.runs", []string{"--candidate", same, "--config", runs2}, nil, cli.ExitOK, "h4 h3",
			"perfgate: warning: " + runs2 + ": line 7: baseline.runs is deprecated: name it baseline.jobs\n"},
		{"--baseline-runs wins", []string{"--candidate", same, "--config", jobs2, "--baseline-runs", "9", "--baseline-runs", "4"}, nil, cli.ExitOK, "h4 h3 h2 h1",
			"perfgate: warning: --baseline-runs is deprecated: name it --baseline-jobs\n"},
		{"PERFGATE_BASELINE_RUNS wins", []string{"--candidate", same, "--config", jobs2}, map[string]string{"PERFGATE_BASELINE_RUNS": "1"}, cli.ExitOK, "h4",
			"perfgate: warning: PERFGATE_BASELINE_RUNS is deprecated: name it PERFGATE_BASELINE_JOBS\n"},
		{"PERFGATE_BASELINE_JOBS over PERFGATE_BASELINE_RUNS", []string{"--candidate", same}, map[string]string{"PERFGATE_BASELINE_JOBS": "1", "PERFGATE_BASELINE_RUNS": "4"}, cli.ExitOK, "h4",
			"perfgate: warning: PERFGATE_BASELINE_RUNS is deprecated and ignored: PERFGATE_BASELINE_JOBS is set\n"},
		{"baseline.branch", []string{"--candidate", same, "--config", trunk}, nil, cli.ExitOK, "", "no trunk run"},
		{"--baseline-branch wins", []string{"--candidate", same, "--config", trunk, "--baseline-branch", "main"}, nil, cli.ExitOK, "h4 h3 h2", ""},
		{"thresholds.default", []string{"--candidate", slow, "--config", loose}, nil, cli.ExitOK, "h4 h3 h2", ""},
		{"--threshold wins", []string{"--candidate", slow, "--config", loose, "--threshold", "10"}, nil, cli.ExitRegression, "h4 h3 h2", ""},
		{"another runner label: incomparable", []string{"--candidate", moved}, nil, cli.ExitOK, "", "no comparable baseline"},
		{"baseline.testbed", []string{"--candidate", moved, "--config", otherBed}, nil, cli.ExitRegression, "h4 h3 h2", ""},
		{"--baseline-testbed", []string{"--candidate", moved, "--baseline-testbed", "gpu-h100-1"}, nil, cli.ExitRegression, "h4 h3 h2", ""},
		{"--baseline-testbed wins", []string{"--candidate", moved, "--config", otherBed, "--baseline-testbed", "gpu-a100-1"}, nil, cli.ExitOK, "", `testbed "gpu-a100-1" vs "gpu-h100-1"`},
		// Nothing judged is inconclusive: exit 0 by default (neutral), 1 under fail (issue 27).
		{"thresholds.inconclusive", []string{"--candidate", moved, "--config", strict}, nil, cli.ExitRegression, "", "--inconclusive is fail"},
		{"--inconclusive wins", []string{"--candidate", moved, "--config", strict, "--inconclusive", "neutral"}, nil, cli.ExitOK, "", "no comparable baseline"},
		{"PERFGATE_INCONCLUSIVE wins", []string{"--candidate", moved, "--config", strict}, map[string]string{"PERFGATE_INCONCLUSIVE": "pass"}, cli.ExitOK, "", "no comparable baseline"},
		{"--inconclusive fail", []string{"--candidate", moved, "--inconclusive", "fail"}, nil, cli.ExitRegression, "", "--inconclusive is fail"},
		{"--inconclusive fail, judged", []string{"--candidate", same, "--inconclusive", "fail"}, nil, cli.ExitOK, "h4 h3 h2", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vars := map[string]string{"PERFGATE_STORE": store}
			for k, v := range c.env {
				vars[k] = v
			}
			out, errOut, code := invoke(t, vars, append([]string{"check", "--format", "json"}, c.args...)...)
			if code != c.wantCode {
				t.Fatalf("exit %d, want %d; stderr %s", code, c.wantCode, errOut)
			}
			if ids := refIDs(parseCheck(t, out).BaselineRuns); ids != c.wantRuns {
				t.Errorf("baseline runs %q, want %q", ids, c.wantRuns)
			}
			if !strings.Contains(errOut, c.wantErr) {
				t.Errorf("stderr %q does not say %q", errOut, c.wantErr)
			}
			if n := strings.Count(errOut, "deprecated"); n != strings.Count(c.wantErr, "deprecated") {
				t.Errorf("stderr says deprecated %d times: %s", n, errOut)
			}
		})
	}
}

// TestCheckConfigErrors checks that a bad config file is exit 2 naming it.
func TestCheckConfigErrors(t *testing.T) {
	store := mainHistory(t)
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yml")
	if err := os.WriteFile(bad, []byte("baseline:\n  jobs: 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	unknown := filepath.Join(dir, "unknown.yml")
	if err := os.WriteFile(unknown, []byte("baseline:\n  brnch: main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	badPolicy := filepath.Join(dir, "policy.yml")
	if err := os.WriteFile(badPolicy, []byte("thresholds:\n  inconclusive: maybe\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cand := writeRuns(t, dir, histRun("pr", 10, 100, asPR))[0]
	for _, c := range []struct{ name, cfg, want string }{
		{"missing", filepath.Join(dir, "nope.yml"), "nope.yml"},
		{"bad value", bad, "bad.yml"},
		{"unknown key", unknown, "brnch"},
		{"bad inconclusive", badPolicy, "thresholds.inconclusive"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, errOut, code := invoke(t, map[string]string{"PERFGATE_STORE": store}, "check", "--candidate", cand, "--config", c.cfg)
			if code != cli.ExitBadInput || !strings.Contains(errOut, c.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 naming %q", code, errOut, c.want)
			}
		})
	}
}

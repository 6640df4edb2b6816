package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/tracker/model"
)

// checkJSON is the part of check's JSON report these tests read.
type checkJSON struct {
	BaselineRuns []model.RunRef       `json:"baseline_runs"`
	Incomparable []model.Incomparable `json:"incomparable"`
	Benchmarks   []struct {
		Verdict string `json:"verdict"`
		Reason  string `json:"reason"`
	} `json:"benchmarks"`
	Summary struct {
		Regressions, Improvements, Insufficient, Unchanged, Incomparable int
	} `json:"summary"`
}

func parseCheck(t *testing.T, out string) checkJSON {
	t.Helper()
	var c checkJSON
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("check output is not JSON: %v\n%s", err, out)
	}
	return c
}

func refIDs(rs []model.RunRef) string {
	var ids []string
	for _, r := range rs {
		ids = append(ids, r.ID)
	}
	return strings.Join(ids, " ")
}

// mainHistory records main runs h0…h4 (all at median 100) into a new store.
func mainHistory(t *testing.T) string {
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	var runs []*model.Results
	for h := range 5 {
		runs = append(runs, histRun(fmt.Sprintf("h%d", h), h, 100))
	}
	args := append([]string{"record", "--store", store}, writeRuns(t, dir, runs...)...)
	if _, errOut, code := invoke(t, nil, args...); code != 0 {
		t.Fatalf("record history: exit %d: %s", code, errOut)
	}
	return store
}

func TestCheckVerdicts(t *testing.T) {
	store := mainHistory(t)
	cases := []struct {
		name     string
		cand     *model.Results
		extra    []string
		env      map[string]string
		wantCode int
		wantRuns string
		check    func(t *testing.T, c checkJSON)
	}{
		{"regression", histRun("pr-slow", 10, 125, asPR), nil, nil, cli.ExitRegression, "h4 h3 h2",
			func(t *testing.T, c checkJSON) {
				if c.Summary.Regressions != 1 {
					t.Errorf("summary %+v, want one regression", c.Summary)
				}
			}},
		{"unchanged", histRun("pr-same", 10, 100, asPR), nil, nil, cli.ExitOK, "h4 h3 h2",
			func(t *testing.T, c checkJSON) {
				if c.Summary.Unchanged != 1 {
					t.Errorf("summary %+v, want unchanged", c.Summary)
				}
			}},
		{"--baseline-jobs", histRun("pr-same", 10, 100, asPR), []string{"--baseline-jobs", "2"}, nil, cli.ExitOK, "h4 h3", nil},
		{"PERFGATE_BASELINE_JOBS", histRun("pr-same", 10, 100, asPR), nil, map[string]string{"PERFGATE_BASELINE_JOBS": "4"}, cli.ExitOK, "h4 h3 h2 h1", nil},
		{"a main run is never its own baseline", histRun("h4", 4, 100), nil, nil, cli.ExitOK, "h3 h2 h1", nil},
		{"other GPU: incomparable, never a silent comparison",
			histRun("pr-h200", 10, 125, asPR, func(r *model.Results) { r.Run.Env[model.EnvGPU] = "NVIDIA H200" }),
			nil, nil, cli.ExitOK, "", func(t *testing.T, c checkJSON) {
				if c.Summary.Incomparable != 1 || len(c.Incomparable) != 3 {
					t.Errorf("summary %+v, %d passed over; want all incomparable, 3 runs passed over", c.Summary, len(c.Incomparable))
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vars := map[string]string{"PERFGATE_STORE": store}
			for k, v := range c.env {
				vars[k] = v
			}
			cand := writeRuns(t, t.TempDir(), c.cand)[0]
			args := append([]string{"check", "--candidate", cand, "--format", "json"}, c.extra...)
			out, errOut, code := invoke(t, vars, args...)
			if code != c.wantCode {
				t.Fatalf("exit %d, want %d; stderr %s", code, c.wantCode, errOut)
			}
			got := parseCheck(t, out)
			if ids := refIDs(got.BaselineRuns); ids != c.wantRuns {
				t.Errorf("baseline runs %q, want %q", ids, c.wantRuns)
			}
			if c.check != nil {
				c.check(t, got)
			}
		})
	}
}

func TestCheckEmptyHistory(t *testing.T) {
	store := filepath.Join(t.TempDir(), "never-created")
	cand := writeRuns(t, t.TempDir(), histRun("pr", 1, 100, asPR))[0]
	out, errOut, code := invoke(t, nil, "check", "--store", store, "--candidate", cand, "--format", "json")
	if code != cli.ExitOK {
		t.Fatalf("exit %d, want 0; stderr %s", code, errOut)
	}
	c := parseCheck(t, out)
	if c.Summary.Insufficient != 1 || len(c.Benchmarks) != 1 || c.Benchmarks[0].Reason != "no baseline run" {
		t.Errorf("empty history: %+v, want every benchmark insufficient with the reason 'no baseline run'", c)
	}
	if !strings.Contains(errOut, "no baseline yet") {
		t.Errorf("stderr %q does not say there is no baseline yet", errOut)
	}
}

func TestCheckRecord(t *testing.T) {
	store := mainHistory(t)
	vars := map[string]string{"PERFGATE_STORE": store}
	pr := writeRuns(t, t.TempDir(), histRun("pr-newest", 20, 50, asPR))[0]
	if _, errOut, code := invoke(t, vars, "check", "--record", "--candidate", pr); code != cli.ExitOK {
		t.Fatalf("check --record: exit %d: %s", code, errOut)
	}
	// The PR run is stored, and never becomes a baseline — even for a
	// main-branch PR run (a fork's PR from its main).
	forkPR := writeRuns(t, t.TempDir(), histRun("fork-pr", 21, 50, func(r *model.Results) {
		r.Run.Event, r.Run.PR = model.EventPullRequest, 8
	}))[0]
	if _, errOut, code := invoke(t, vars, "check", "--record", "--candidate", forkPR); code != cli.ExitOK {
		t.Fatalf("check --record: exit %d: %s", code, errOut)
	}
	main := writeRuns(t, t.TempDir(), histRun("h9", 30, 100))[0]
	out, errOut, code := invoke(t, vars, "check", "--record", "--candidate", main, "--format", "json")
	if code != cli.ExitOK {
		t.Fatalf("check of a main run: exit %d: %s", code, errOut)
	}
	if ids := refIDs(parseCheck(t, out).BaselineRuns); ids != "h4 h3 h2" {
		t.Errorf("baseline runs %q, want h4 h3 h2 (no PR run)", ids)
	}
	if got := fmt.Sprint(storedRuns(t, store)); got != "[h9 h4 h3 h2 h1 h0]" {
		t.Errorf("stored baseline runs %s, want the main run recorded by check --record", got)
	}
}

func TestCheckUsage(t *testing.T) {
	store := mainHistory(t)
	dir := t.TempDir()
	cand := writeRuns(t, dir, histRun("pr", 10, 100, asPR))[0]
	other := writeRuns(t, dir, histRun("pr-a100", 10, 100, asPR, func(r *model.Results) { r.Run.Testbed = "gpu-a100-2" }))[0]
	cases := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"no candidate", nil, "--candidate"},
		{"zero baseline jobs", []string{"--candidate", cand, "--baseline-jobs", "0"}, "--baseline-jobs: must be between 1 and 1000, got 0"},
		{"empty branch", []string{"--candidate", cand, "--baseline-branch", ""}, "--baseline-branch: must not be empty"},
		{"bad threshold", []string{"--candidate", cand, "--threshold", "-1"}, "-threshold"},
		{"missing candidate file", []string{"--candidate", filepath.Join(dir, "nope.json")}, "nope.json"},
		{"a candidate run twice", []string{"--candidate", cand, "--candidate", cand}, "run pr is also in"},
		{"candidates from two testbeds", []string{"--candidate", cand, "--candidate", other}, "another testbed"},
		{"stray argument", []string{"--candidate", cand, "extra.json"}, "extra.json"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, errOut, code := invoke(t, map[string]string{"PERFGATE_STORE": store}, append([]string{"check"}, c.args...)...)
			if code != cli.ExitBadInput || !strings.Contains(errOut, c.wantErr) {
				t.Errorf("exit %d, stderr %q; want exit 2 naming %q", code, errOut, c.wantErr)
			}
		})
	}
	_, errOut, code := invoke(t, map[string]string{"PERFGATE_STORE": store, "PERFGATE_BASELINE_JOBS": "three"}, "check", "--candidate", cand)
	if want := `PERFGATE_BASELINE_JOBS: "three" is not an integer`; code != cli.ExitBadInput || !strings.Contains(errOut, want) {
		t.Errorf("PERFGATE_BASELINE_JOBS=three: exit %d, stderr %q; want exit 2 and %q", code, errOut, want)
	}
}

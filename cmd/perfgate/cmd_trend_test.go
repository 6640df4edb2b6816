package main

import (
	"encoding/csv"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestTrendEmbedded runs trend and prune over the embedded store: a main
// history whose median steps up 20% at the seventh run.
func TestTrendEmbedded(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	var files []string
	for h := range 12 {
		median := 100.0
		if h >= 6 {
			median = 120
		}
		files = append(files, writeRuns(t, dir, histRun("r"+string(rune('a'+h)), h, median))...)
	}
	files = append(files, writeRuns(t, dir, histRun("pr", 12, 200, asPR))...)
	if _, errOut, code := invoke(t, nil, append([]string{"record", "--store", store}, files...)...); code != 0 {
		t.Fatalf("record: exit %d, %s", code, errOut)
	}
	out, errOut, code := invoke(t, nil, "trend", "--store", store, "--benchmark", "add/*/*/*", "--since", "0", "--format", "csv")
	if code != 0 {
		t.Fatalf("trend: exit %d, %s", code, errOut)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 13 { // header + 12 main runs: the PR run is no baseline
		t.Fatalf("trend CSV has %d rows, want 13:\n%s", len(rows), out)
	}
	var steps []string
	for _, r := range rows[1:] {
		if r[12] != "" {
			change, err := strconv.ParseFloat(r[12], 64)
			if err != nil || math.Abs(change-0.2) > 1e-9 {
				t.Errorf("step at %s: change %q, want 0.2", r[6], r[12])
			}
			steps = append(steps, r[6])
		}
	}
	if strings.Join(steps, ",") != "rg" {
		t.Errorf("steps at %v, want one at rg, the first 120 run", steps)
	}

	out, _, code = invoke(t, nil, "trend", "--store", store, "--benchmark", "add/*/*/*", "--since", "0", "--branch", "")
	// The pull-request run at 200 is a last run far off a noiseless level:
	// a second step, found with the one run after it.
	if code != 0 || !strings.Contains(out, "13 run(s), 2 step change(s)") || !strings.Contains(out, "step: regression at") {
		t.Errorf("trend --branch '': exit %d\n%s\nwant 13 runs (PR included) and two steps", code, out)
	}

	out, errOut, code = invoke(t, nil, "trend", "--store", store, "--benchmark", "add/*/*/*", "--since", "0", "--changes", "--format", "csv")
	rows, err = csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 0 || err != nil || len(rows) != 2 || rows[1][6] != "rg" || rows[1][11] != "regression" {
		t.Errorf("trend --changes: exit %d, %v, %s\n%s\nwant one change at run rg", code, err, errOut, out)
	}
	for format, want := range map[string]string{"markdown": "| <code>rg</code> |", "latex": `\begin{tabular}`} {
		out, errOut, code = invoke(t, nil, "trend", "--store", store, "--benchmark", "add/*/*/*", "--since", "0", "--format", format)
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("trend --format %s: exit %d, %s\n%s\nwant %q", format, code, errOut, out, want)
		}
	}
	if _, errOut, code = invoke(t, nil, "trend", "--store", store, "--benchmark", "*", "--step-p", "2"); code != 2 || !strings.Contains(errOut, "--step-p") {
		t.Errorf("trend --step-p 2: exit %d, %q; want 2 naming the flag", code, errOut)
	}

	out, errOut, code = invoke(t, nil, "prune", "--store", store, "--older-than", "1d", "--keep", "2")
	if code != 0 || !strings.Contains(out, "deleted 11 run(s) (330 samples)") {
		t.Errorf("prune: exit %d, %q %q; want 11 runs deleted (all but the latest 2 main runs)", code, out, errOut)
	}
}

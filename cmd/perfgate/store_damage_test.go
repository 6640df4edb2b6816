package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
)

// trendRows runs trend --format csv over store and returns its data rows.
func trendRows(t *testing.T, store string) [][]string {
	t.Helper()
	out, errOut, code := invoke(t, nil, "trend", "--store", store, "--benchmark", "*", "--since", "0", "--format", "csv")
	if code != 0 {
		t.Fatalf("trend: exit %d: %s", code, errOut)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) == 0 {
		t.Fatalf("trend CSV: %v\n%s", err, out)
	}
	return rows[1:]
}

// TestStoreSeriesDeleted does what the embedded store's old advice said
// ("delete the series directory to rebuild it"; issue 28, item 1): trend
// found nothing, and every later record exited 3 after writing its run
// file. The store rebuilds the series from the run files: trend shows
// every run, record succeeds, and the warning says what was rebuilt.
func TestStoreSeriesDeleted(t *testing.T) {
	store := mainHistory(t)
	if err := os.RemoveAll(filepath.Join(store, "series")); err != nil {
		t.Fatal(err)
	}
	if rows := trendRows(t, store); len(rows) != 5 {
		t.Errorf("trend after the series were deleted: %d points, want 5", len(rows))
	}
	dir := t.TempDir()
	_, errOut, code := invoke(t, nil, append([]string{"record", "--store", store}, writeRuns(t, dir, histRun("h5", 5, 100))...)...)
	if code != 0 {
		t.Fatalf("record after the series were deleted: exit %d: %s", code, errOut)
	}
	if rows := trendRows(t, store); len(rows) != 6 {
		t.Errorf("trend after a record: %d points, want 6", len(rows))
	}
	if err := os.RemoveAll(filepath.Join(store, "series")); err != nil {
		t.Fatal(err)
	}
	_, errOut, code = invoke(t, nil, append([]string{"record", "--store", store}, writeRuns(t, dir, histRun("h6", 6, 100))...)...)
	if code != 0 || !strings.Contains(errOut, "perfgate: warning: ") || !strings.Contains(errOut, "rebuilding the catalog and series files") {
		t.Errorf("record with the series deleted: exit %d, stderr %q; want 0 and a warning of the rebuild", code, errOut)
	}
	if rows := trendRows(t, store); len(rows) != 7 {
		t.Errorf("trend after a record: %d points, want 7", len(rows))
	}
}

// TestCheckSkipsDamagedRun truncates the newest stored run (issue 28, item
// 7: every check exited 2, "invalid JSON: unexpected EOF"): check judges
// against the other runs, and warns naming the file and the repair.
func TestCheckSkipsDamagedRun(t *testing.T) {
	store := mainHistory(t)
	bad := filepath.Join(store, "runs", "h4.json")
	data, err := os.ReadFile(bad)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	cand := writeRuns(t, t.TempDir(), histRun("pr-same", 10, 100, asPR))
	out, errOut, code := invoke(t, nil, "check", "--store", store, "--format", "json", cand[0])
	if code != cli.ExitOK {
		t.Fatalf("check over a damaged run: exit %d: %s", code, errOut)
	}
	if c := parseCheck(t, out); refIDs(c.BaselineRuns) != "h3 h2 h1" {
		t.Errorf("baseline runs %q, want h3 h2 h1", refIDs(c.BaselineRuns))
	}
	if !strings.Contains(errOut, "perfgate: warning: "+bad+" is damaged and was skipped") || !strings.Contains(errOut, "record the run's results file again") {
		t.Errorf("stderr does not name %s and the repair:\n%s", bad, errOut)
	}
}

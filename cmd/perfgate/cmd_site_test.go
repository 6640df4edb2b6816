package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSite builds the dashboard from a recorded history.
func TestSite(t *testing.T) {
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
	if _, errOut, code := invoke(t, nil, append([]string{"record", "--store", store}, files...)...); code != 0 {
		t.Fatalf("record: exit %d, %s", code, errOut)
	}
	out := filepath.Join(dir, "site")
	_, errOut, code := invoke(t, nil, "site", "--store", store, "--since", "0", "--out", out, "--repo-url", "https://github.com/o/r")
	if code != 0 || !strings.Contains(errOut, "wrote") {
		t.Fatalf("site: exit %d, %s", code, errOut)
	}
	var idx struct {
		Suites []struct {
			Name, Page string
			Steps      int
		}
	}
	b, err := os.ReadFile(filepath.Join(out, "data", "index.json"))
	if err != nil || json.Unmarshal(b, &idx) != nil || len(idx.Suites) != 1 || idx.Suites[0].Steps != 1 {
		t.Fatalf("index.json: %v %s", err, b)
	}
	for _, f := range []string{"index.html", "app.js", "style.css", idx.Suites[0].Page} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	if _, errOut, code := invoke(t, nil, "site", "--store", store); code != 2 || !strings.Contains(errOut, "--out") {
		t.Errorf("site without --out: exit %d, %q", code, errOut)
	}
}

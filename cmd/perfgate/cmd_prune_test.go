package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPruneGuards: an ambiguous age is refused, and a prune of more runs
// than --max-delete deletes nothing without --yes but prints the count
// (issue 11, defect 2).
func TestPruneGuards(t *testing.T) {
	store := t.TempDir()
	history, err := filepath.Glob("../../examples/history/*.json")
	if err != nil || len(history) != 5 {
		t.Fatalf("examples/history: %v, %d files; want 5", err, len(history))
	}
	if _, errOut, code := invoke(t, nil, append([]string{"record", "--store", store}, history...)...); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	steps := []struct {
		name   string
		args   []string
		code   int
		stdout string // substring
		stderr string // substring
	}{
		{"minutes or months", []string{"--older-than", "6m"}, 2, "", "--older-than: \"6m\" is ambiguous: write 6mo for months"},
		{"seconds", []string{"--older-than", "30s"}, 2, "", "not seconds"},
		{"more than --max-delete", []string{"--older-than", "1h", "--keep", "0", "--max-delete", "4"}, 2,
			"would delete 5 run(s)", "5 runs is more than --max-delete 4; nothing deleted"},
		{"nothing was deleted", []string{"--older-than", "1h", "--keep", "0", "--dry-run"}, 0, "would delete 5 run(s)", ""},
		{"within --max-delete", []string{"--older-than", "1y", "--keep", "0", "--max-delete", "4"}, 0, "deleted 0 run(s)", ""},
		{"--yes", []string{"--older-than", "1h", "--keep", "0", "--max-delete", "4", "--yes"}, 0, "deleted 5 run(s)", ""},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			out, errOut, code := invoke(t, nil, append([]string{"prune", "--store", store}, s.args...)...)
			if code != s.code || !strings.Contains(out, s.stdout) || !strings.Contains(errOut, s.stderr) {
				t.Errorf("prune %s: exit %d, stdout %q, stderr %q; want %d, %q, %q", strings.Join(s.args, " "), code, out, errOut, s.code, s.stdout, s.stderr)
			}
		})
	}
}

// TestNotAStore: prune, site, trend and chart trend only read or delete
// history, so a --store that holds no store (a typo, an empty directory,
// the default .perfgate where nothing was recorded) is refused with exit
// 2 naming it, and nothing is created: prune made the store and said
// "deleted 0 run(s)", and site wrote an empty dashboard.
func TestNotAStore(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	if _, errOut, code := invoke(t, nil, "record", "--store", store, "../../examples/history/main-1.json"); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	typo, empty := filepath.Join(dir, "stroe"), t.TempDir()
	out := filepath.Join(dir, "site")
	for _, bad := range []string{typo, empty} {
		for _, args := range [][]string{
			{"prune", "--older-than", "1y"},
			{"site", "--out", out},
			{"trend", "--benchmark", "*"},
			{"chart", "trend", "--benchmark", "*", "--out", filepath.Join(dir, "c.svg")},
		} {
			stdout, stderr, code := invoke(t, nil, append(args, "--store", bad)...)
			if want := "--store: " + bad + ": no perfgate store here (perfgate record creates one): check the path"; code != 2 || !strings.Contains(stderr, want) || stdout != "" {
				t.Errorf("%s --store %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", strings.Join(args, " "), bad, code, stdout, stderr, want)
			}
		}
		if _, err := os.Stat(filepath.Join(bad, "runs")); err == nil {
			t.Errorf("%s: a store was created in it", bad)
		}
	}
	for _, p := range []string{typo, out, filepath.Join(dir, "c.svg")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was created", p)
		}
	}
	// The store that exists is read as before.
	if stdout, stderr, code := invoke(t, nil, "prune", "--store", store, "--older-than", "1y"); code != 0 || !strings.Contains(stdout, "deleted 0 run(s)") {
		t.Errorf("prune of the store: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

package resultsjson

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

// writeFile writes data to the file name in dir and returns its path.
func writeFile(tb testing.TB, dir, name string, data []byte) string {
	tb.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

func TestLoadAll(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string { return writeFile(t, dir, name, data) }
	valid, err := os.ReadFile("testdata/valid.json")
	if err != nil {
		t.Fatal(err)
	}
	a := write("a.json", valid)
	same := write("same.json", valid) // the same run in another file
	other := write("other.json", mutate(t, func(doc map[string]any) { run(doc)["branch"] = "elsewhere" }))
	bad := write("bad.json", []byte("{"))
	tests := []struct {
		name     string
		files    []string
		errHolds []string // "" = no error
	}{
		{"one run", []string{a}, nil},
		{"the same run twice loads (recording it twice is a no-op)", []string{a, same}, nil},
		{"one id, other content", []string{a, other}, []string{other + ": $.run.id: run", "is also in " + a + ", with different content"}},
		{"every problem at once", []string{bad, a, other}, []string{bad + ":", other + ": $.run.id"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runs, err := LoadAll(tt.files)
			if len(tt.errHolds) == 0 {
				if err != nil || len(runs) != len(tt.files) {
					t.Fatalf("LoadAll = %d runs, %v; want %d", len(runs), err, len(tt.files))
				}
				return
			}
			if !model.IsInputError(err) {
				t.Fatalf("err = %v, want an input error", err)
			}
			for _, want := range tt.errHolds {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("err %q does not hold %q", err, want)
				}
			}
		})
	}
	runs, err := LoadAll([]string{a, same})
	if err != nil {
		t.Fatal(err)
	}
	if err := DistinctRuns([]string{a, same}, runs); !model.IsInputError(err) || !strings.Contains(err.Error(), "pooled twice") {
		t.Errorf("DistinctRuns of one run twice = %v; want an input error (a run pooled twice)", err)
	}
}

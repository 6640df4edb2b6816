package actionjob

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/action"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// TestLoadResultFiles: the filter input keeps the benchmarks of the
// suites it matches; one that matches none is bad input naming it; a bad
// file is bad input.
func TestLoadResultFiles(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "r.json")
	r := &model.Results{Schema: model.Schema, Run: model.Run{ID: "r1", Repo: "o/r", Commit: strings.Repeat("a", 40), Branch: "main",
		Event: model.EventPush, Testbed: "tb", StartedAt: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)},
		Benchmarks: []model.Benchmark{
			{Suite: "gemm", Name: "a", Unit: "ns", Better: model.Lower, Samples: []float64{1, 2, 3}},
			{Suite: "softmax", Name: "b", Unit: "ns", Better: model.Lower, Samples: []float64{1, 2, 3}},
		}}
	if err := resultsjson.WriteFile(p, r); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		files  []string
		filter string
		want   int    // benchmarks kept
		err    string // "": none
	}{
		{[]string{p}, "", 2, ""},
		{[]string{p}, "^gemm$", 1, ""},
		{[]string{p}, "^nothing$", 0, `filter: "^nothing$" matches no suite of the results files`},
		{[]string{filepath.Join(dir, "missing.json")}, "", 0, "missing.json"},
	} {
		s := &action.Settings{ResultFiles: tc.files}
		if tc.filter != "" {
			s.Filter = regexp.MustCompile(tc.filter)
		}
		runs, err := LoadResultFiles(s)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !model.IsInputError(err) {
				t.Errorf("%v %q: error %v, want input error %q", tc.files, tc.filter, err, tc.err)
			}
			continue
		}
		if err != nil || len(runs) != 1 || len(runs[0].Benchmarks) != tc.want {
			t.Errorf("%v %q: %v, %v; want %d benchmarks", tc.files, tc.filter, runs, err, tc.want)
		}
	}
}

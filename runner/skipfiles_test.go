package runner

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
)

// TestWriteSkipBaseline: the baseline runs come back as files that
// loadUnchanged reads to the same hashes; without any hash nothing is
// skipped; the log names the selected suites that are not builtin; cleanup
// removes the folder.
func TestWriteSkipBaseline(t *testing.T) {
	cfg := &config.Config{Suites: []config.Suite{
		{Name: "gpu", Builtin: &config.Builtin{}},
		{Name: "cmd", Command: &config.Command{}},
		{Name: "other", Command: &config.Command{}},
	}}
	hashed := []*model.Results{hashedRun("old", 1, map[string]string{"add": "aaa"}), hashedRun("new", 2, map[string]string{"add": "bbb"})}
	unhashed := []*model.Results{hashedRun("old", 1, map[string]string{"add": ""})}
	for _, tc := range []struct {
		name     string
		runs     []*model.Results
		only     *regexp.Regexp
		files    int
		measured string // "": no suite is named as measured in full
	}{
		{"hashes", hashed, nil, 2, "suites cmd, other are measured in full"},
		{"filter", hashed, regexp.MustCompile("^(gpu|cmd)$"), 2, "suites cmd are measured in full"},
		{"builtin only", hashed, regexp.MustCompile("^gpu$"), 2, ""},
		{"no hash", unhashed, nil, 0, "suites cmd, other are measured in full"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			var log bytes.Buffer
			against, cleanup, err := WriteSkipBaseline(root, tc.runs, cfg, tc.only, &log)
			if err != nil {
				t.Fatal(err)
			}
			var files []string
			if against != "" {
				files = strings.Split(against, ",")
			}
			if len(files) != tc.files {
				t.Fatalf("against = %q, want %d files", against, tc.files)
			}
			if tc.files > 0 {
				got, err := loadUnchanged(against)
				if err != nil {
					t.Fatal(err)
				}
				if want := UnchangedKernels(tc.runs); len(got) != 1 || got["elementwise/add"] != want["elementwise/add"] {
					t.Errorf("the files' hashes = %v, want %v", got, want)
				}
			}
			if m := strings.Contains(log.String(), "measured in full"); m != (tc.measured != "") || !strings.Contains(log.String(), tc.measured) {
				t.Errorf("log = %q, want %q", log.String(), tc.measured)
			}
			cleanup()
			if left, _ := os.ReadDir(root); len(left) != 0 {
				t.Errorf("cleanup left %v", left)
			}
		})
	}
}

package ghactions

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

// TestWriteOutputs checks the heredoc format actions/toolkit writes, with
// a delimiter a hostile value cannot guess: a value holding a newline and
// "verdict=pass" stays one value.
func TestWriteOutputs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "output")
	if err := WriteOutputs(path, [][2]string{{"verdict", "fail"}, {"run-id", "x\nverdict=pass"}}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`^verdict<<(ghadelimiter_[0-9a-f]{32})\nfail\n(ghadelimiter_[0-9a-f]{32})\nrun-id<<(ghadelimiter_[0-9a-f]{32})\nx\nverdict=pass\n(ghadelimiter_[0-9a-f]{32})\n$`)
	m := re.FindStringSubmatch(string(b))
	if m == nil || m[1] != m[2] || m[1] != m[3] || m[1] != m[4] {
		t.Errorf("outputs file:\n%s", b)
	}
	if err := WriteOutputs("", [][2]string{{"a", "b"}}); err != nil {
		t.Errorf("no GITHUB_OUTPUT: %v, want nothing done", err)
	}
}

// TestReadEvent: no GITHUB_EVENT_PATH is no event; a file is read as it
// is; a missing one is bad input naming the variable.
func TestReadEvent(t *testing.T) {
	p := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(p, []byte(`{"number":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, want, err string
	}{
		{"", "", ""},
		{p, `{"number":1}`, ""},
		{p + ".missing", "", "GITHUB_EVENT_PATH: open " + p + ".missing: no such file or directory"},
	} {
		job := New(func(k string) string { return map[string]string{"GITHUB_EVENT_PATH": tc.path}[k] }, io.Discard)
		got, err := job.ReadEvent()
		if string(got) != tc.want || (err == nil) != (tc.err == "") || (err != nil && (err.Error() != tc.err || !model.IsInputError(err))) {
			t.Errorf("ReadEvent(%q) = %q, %v; want %q, %q", tc.path, got, err, tc.want, tc.err)
		}
	}
}

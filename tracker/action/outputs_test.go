package action

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
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

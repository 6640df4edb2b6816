package resultsjson

import (
	"strings"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

// TestParseRejectsInvalidUTF8 loads two documents whose run ids differ
// only in a byte that is not UTF-8: JSON decoding once turned both into
// U+FFFD, so they collided. Each is refused, naming where (issue 10, item 14).
func TestParseRejectsInvalidUTF8(t *testing.T) {
	const doc = `{"schema": "perfgate.results/v1", "run": {"id": "run-%s", "repo": "a/b", "commit": "0000000000000000000000000000000000000000",
"branch": "main", "event": "local", "testbed": "t", "started_at": "2026-01-01T00:00:00Z"},
"benchmarks": [{"suite": "s", "name": "n", "unit": "ns", "better": "lower", "samples": [1]}]}`
	for _, b := range []string{"\xff", "\xfe", "\xc3"} {
		_, err := Parse("r.json", []byte(strings.Replace(doc, "%s", b, 1)))
		if !model.IsInputError(err) || !strings.Contains(err.Error(), "r.json: line 1, column 54: byte") || !strings.Contains(err.Error(), "is not valid UTF-8") {
			t.Errorf("id byte %q: err = %v; want bad input naming the position", b, err)
		}
	}
	if _, err := Parse("r.json", []byte(strings.Replace(doc, "%s", "é", 1))); err != nil {
		t.Errorf("valid UTF-8 refused: %v", err)
	}
}

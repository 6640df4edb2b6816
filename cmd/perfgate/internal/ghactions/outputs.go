package ghactions

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
)

// WriteOutputs appends step outputs to the file GITHUB_OUTPUT names, each
// as name<<DELIM, the value, DELIM, with a delimiter drawn at random for
// this call, as actions/toolkit does: a value (a run id, a path) cannot
// end its own entry early and append "verdict=pass" after it, because it
// cannot know the delimiter. A value that contains it anyway is refused.
// Without GITHUB_OUTPUT (not under a runner) it does nothing.
func WriteOutputs(path string, pairs [][2]string) error {
	if path == "" {
		return nil
	}
	var raw [16]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return &model.InfraError{Op: "draw an outputs delimiter", Err: err}
	}
	delim := "ghadelimiter_" + hex.EncodeToString(raw[:])
	var b strings.Builder
	for _, p := range pairs {
		if strings.Contains(p[0], delim) || strings.Contains(p[1], delim) {
			return fmt.Errorf("output %q: the value contains the delimiter; refused", p[0])
		}
		fmt.Fprintf(&b, "%s<<%s\n%s\n%s\n", p[0], delim, p[1], delim)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return &model.InfraError{Op: "open GITHUB_OUTPUT", Err: err}
	}
	if _, err := f.WriteString(b.String()); err != nil {
		f.Close()
		return &model.InfraError{Op: "write GITHUB_OUTPUT", Err: err}
	}
	return f.Close()
}

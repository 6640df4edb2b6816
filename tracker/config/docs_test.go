package config

import (
	"os"
	"strings"
	"testing"
)

// TestDocErrors: the errors docs/config.md shows as examples are the
// ones Parse gives (after the line number, which the example's file
// sets), so the ranges they quote (MaxRepeat, the top-level keys) are the
// code's.
func TestDocErrors(t *testing.T) {
	doc, err := os.ReadFile("../../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	for name, yml := range map[string]string{
		"repeat":      "suites:\n  - name: a\n    command:\n      run: x\n      format: gotest\n      repeat: 0\n",
		"unknown key": "threshold: 1\nsuites:\n  - name: a\n    command:\n      run: x\n      format: gotest\n",
	} {
		_, err := Parse(".perfgate.yml", []byte(yml))
		if err == nil {
			t.Fatalf("%s: no error", name)
		}
		// ".perfgate.yml: line 6: suites[0].command.repeat: …" less the line and the suite's index.
		_, msg, _ := strings.Cut(err.Error(), ": line ")
		_, msg, _ = strings.Cut(msg, ": ")
		msg = strings.TrimPrefix(msg, "suites[0]")
		if !strings.Contains(string(doc), msg+"\n") {
			t.Errorf("docs/config.md's example errors do not show %q", msg)
		}
	}
}

package main

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/action"
	"github.com/perfgate/perfgate/tracker/compare"
)

// readActionFiles returns action.yml and docs/action.md, which the input
// tests hold to the action's settings.
func readActionFiles(t *testing.T) (yml, doc []byte) {
	t.Helper()
	yml, err := os.ReadFile("../../action.yml")
	if err == nil {
		doc, err = os.ReadFile("../../docs/action.md")
	}
	if err != nil {
		t.Fatal(err)
	}
	return yml, doc
}

// actionSettingsWith returns the action's settings (tracker/action with
// its defaults) when input name is value and every other input and
// variable is empty; name "": all of them empty.
func actionSettingsWith(name, value string) (*action.Settings, error) {
	input := func(in string) string {
		if name != "" && in == name {
			return value
		}
		return ""
	}
	return action.ReadSettings(input, func(string) string { return "" }, actionDefaults)
}

// TestActionInputFallbacks: an input that action.yml says falls back to a
// value when empty and given nowhere else ("Empty means the config's
// thresholds.alpha, else 0.01.") falls back to the value the action
// applies (tracker/action with its defaults: the settings read with the
// input empty and with it set to that value are the same, bar which
// inputs were given), and docs/action.md's inputs table names the same
// value.
func TestActionInputFallbacks(t *testing.T) {
	yml, actionDoc := readActionFiles(t)
	empty, err := actionSettingsWith("", "")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range regexp.MustCompile(`(?m)^  ([a-z-]+):\n    description: "?.*Empty means .*, else (\S+)\."?$`).FindAllStringSubmatch(string(yml), -1) {
		name, def := m[1], m[2]
		n++
		got, err := actionSettingsWith(name, def)
		if err == nil {
			got.Explicit = empty.Explicit
		}
		if err != nil || !reflect.DeepEqual(got, empty) {
			t.Errorf("input %s: action.yml says it falls back to %s, which is not what the action does when it is empty (%v)", name, def, err)
		}
		if !regexp.MustCompile("(?m)^\\| `" + regexp.QuoteMeta(name) + "` \\| [^|]*, else `" + regexp.QuoteMeta(def) + "` \\|").Match(actionDoc) {
			t.Errorf("docs/action.md does not give %s's fallback, %s", name, def)
		}
	}
	if n < 5 {
		t.Errorf("found %d inputs with a fallback in action.yml, want the lot", n)
	}
}

// TestActionInputValues: an input that takes one of a few words takes
// the words its owner declares, and action.yml's description and
// docs/action.md's row name each of them; a word it does not declare is
// refused, naming the input.
func TestActionInputValues(t *testing.T) {
	yml, actionDoc := readActionFiles(t)
	for name, words := range map[string][]string{
		"comment":        {string(action.CommentAlways), string(action.CommentOnChange), string(action.CommentNever)},
		"notify-changes": {string(action.NotifyOff), string(action.NotifyCommitComment), string(action.NotifyIssue)},
		"pre-run-checks": runner.PreRunPolicies,
		"inconclusive":   compare.InconclusivePolicies,
		"baseline":       {action.BaselineHistory, action.BaselineInterleaved},
	} {
		desc := regexp.MustCompile(`\n  ` + regexp.QuoteMeta(name) + `:\n    description: (.*)\n`).FindSubmatch(yml)
		row := regexp.MustCompile("(?m)^\\| `" + regexp.QuoteMeta(name) + "` \\|(.*)$").FindSubmatch(actionDoc)
		if desc == nil || row == nil {
			t.Errorf("action.yml or docs/action.md has no input %s", name)
			continue
		}
		for _, w := range append(slices.Clone(words), "bogus") {
			_, err := actionSettingsWith(name, w)
			if ok := w != "bogus"; (err == nil) != ok || !ok && !strings.Contains(err.Error(), name) {
				t.Errorf("input %s: %s: %v (one of %v: %v)", name, w, err, words, ok)
			}
			if w == "bogus" {
				continue
			}
			if !regexp.MustCompile(`\b` + regexp.QuoteMeta(w) + `\b`).Match(desc[1]) {
				t.Errorf("action.yml: %s's description does not name %s", name, w)
			}
			if !strings.Contains(string(row[1]), "`"+w+"`") {
				t.Errorf("docs/action.md: the %s row does not name `%s`", name, w)
			}
		}
	}
}

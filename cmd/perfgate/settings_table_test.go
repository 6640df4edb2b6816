package main

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/config"
)

// oneSuite is the least a .perfgate.yml holds.
const oneSuite = "suites:\n  - name: a\n    command:\n      run: x\n      format: gotest\n"

// TestSettingsTable: each judging setting is what compare's table
// (compare.VerdictSettings, compare.BaselineSettings) says wherever users
// meet it: a flag of perfgate check whose usage names the table's
// variable and which takes the table's range; an input of action.yml
// when the table gives one, whose description and row in docs/action.md
// name the config key that fills it when empty; a .perfgate.yml key,
// documented in docs/config.md, that takes the same range. A renamed
// setting's old flag and key (Old) are still read, take the same range
// and are documented as deprecated.
func TestSettingsTable(t *testing.T) {
	help, _, _ := invoke(t, nil, "check", "--help")
	yml, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	actionDoc, err := os.ReadFile("../../docs/action.md")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range append(append([]compare.Setting(nil), compare.VerdictSettings...), compare.BaselineSettings...) {
		t.Run(s.Name, func(t *testing.T) {
			usage := regexp.MustCompile(`(?m)^  --` + regexp.QuoteMeta(s.Name) + `\b.*\n(.*)$`).FindStringSubmatch(help)
			switch {
			case usage == nil:
				t.Errorf("perfgate check has no --%s", s.Name)
			case !strings.Contains(usage[1], "(env "+s.Env+")"):
				t.Errorf("--%s's usage does not name %s: %s", s.Name, s.Env, usage[1])
			}
			if s.Input != "" {
				// The input, its description (the next line) and the row of
				// docs/action.md's table name the config key that fills it.
				desc := regexp.MustCompile(`\n  ` + regexp.QuoteMeta(s.Input) + `:\n    description: (.*)\n`).FindSubmatch(yml)
				row := regexp.MustCompile("(?m)^\\| `" + regexp.QuoteMeta(s.Input) + "` \\|(.*)$").FindSubmatch(actionDoc)
				switch {
				case desc == nil:
					t.Errorf("action.yml has no input %s with a description", s.Input)
				case !strings.Contains(string(desc[1]), "config's "+s.Config):
					t.Errorf("action.yml: %s's description does not say the config's %s fills it: %s", s.Input, s.Config, desc[1])
				case row == nil || !strings.Contains(string(row[1]), "`"+s.Config+"` of the config"):
					t.Errorf("docs/action.md: the inputs table does not say %s of the config fills %s", s.Config, s.Input)
				}
			}
			if s.Old.Name != "" {
				old := regexp.MustCompile(`(?m)^  --` + regexp.QuoteMeta(s.Old.Name) + `\b.*\n(.*)$`).FindStringSubmatch(help)
				if old == nil || !strings.Contains(old[1], "deprecated: the old name of --"+s.Name) {
					t.Errorf("perfgate check's --%s is not the deprecated name of --%s: %q", s.Old.Name, s.Name, old)
				}
			}
			if s.Max == 0 {
				return
			}
			lo, hi := s.IntRange()
			for _, v := range []int{lo, hi, lo - 1, hi + 1} {
				ok := v >= lo && v <= hi
				for _, flag := range []string{s.Name, s.Old.Name} {
					if flag == "" {
						continue
					}
					_, stderr, code := invoke(t, nil, "check", fmt.Sprintf("--%s=%d", flag, v), "--store", t.TempDir(), "nothing.json")
					if refused := code == 2 && strings.Contains(stderr, "--"+s.Name+":"); refused == ok {
						t.Errorf("--%s=%d: exit %d, %s (in range %d to %d: %v)", flag, v, code, stderr, lo, hi, ok)
					}
				}
				for _, name := range []string{s.Config, s.Old.Config} {
					if name == "" {
						continue
					}
					section, key, _ := strings.Cut(name, ".")
					_, err := config.Parse(".perfgate.yml", fmt.Appendf(nil, "%s:\n  %s: %d\n%s", section, key, v, oneSuite))
					if (err == nil) != ok {
						t.Errorf("%s: %d: %v (in range %d to %d: %v)", name, v, err, lo, hi, ok)
					}
				}
			}
		})
		if s.Config != "" {
			_, key, _ := strings.Cut(s.Config, ".")
			if !strings.Contains(string(doc), "\n  "+key+":") {
				t.Errorf("docs/config.md does not show %s", s.Config)
			}
		}
		for _, old := range []string{s.Old.Name, s.Old.Env, s.Old.Config} {
			if old != "" && !regexp.MustCompile("`-*"+regexp.QuoteMeta(old)+"` \\(deprecated\\)").Match(doc) {
				t.Errorf("docs/config.md does not say that %s is deprecated (\"`%s` (deprecated)\")", old, old)
			}
		}
	}
}

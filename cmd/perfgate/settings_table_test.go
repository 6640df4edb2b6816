package main

import (
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/ab"
	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/action"
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
	yml, actionDoc := readActionFiles(t)
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

// TestRunSettingsTable: each setting of runner.RunSettings is what the
// table says wherever users meet it: a flag of perfgate run whose usage
// names the table's variable and whose default the variable sets; an
// input of action.yml when the table gives one, whose description and
// row in docs/action.md give the table's range (and, for rounds, the
// action's default); and the table's range, taken by the flag and by the
// input alike.
func TestRunSettingsTable(t *testing.T) {
	yml, actionDoc := readActionFiles(t)
	for _, s := range runner.RunSettings {
		t.Run(s.Name, func(t *testing.T) {
			if s.Env != "" {
				help, _, _ := invoke(t, map[string]string{s.Env: "from-the-env"}, "run", "--help")
				usage := regexp.MustCompile(`(?m)^  --` + regexp.QuoteMeta(s.Name) + `\b.*\n(.*)$`).FindStringSubmatch(help)
				switch {
				case usage == nil:
					t.Errorf("perfgate run has no --%s", s.Name)
				case !strings.Contains(usage[1], "(env "+s.Env):
					t.Errorf("--%s's usage does not name %s: %s", s.Name, s.Env, usage[1])
				case !strings.Contains(usage[1], "(default from-the-env)"):
					t.Errorf("--%s does not default to %s: %s", s.Name, s.Env, usage[1])
				}
			}
			lo, hi := s.IntRange()
			if s.Input != "" {
				desc := regexp.MustCompile(`\n  ` + regexp.QuoteMeta(s.Input) + `:\n    description: (.*)\n`).FindSubmatch(yml)
				row := regexp.MustCompile("(?m)^\\| `" + regexp.QuoteMeta(s.Input) + "` \\| (.*)$").FindSubmatch(actionDoc)
				rng := fmt.Sprintf("%d to %d", lo, hi)
				switch {
				case desc == nil || row == nil:
					t.Fatalf("action.yml or docs/action.md has no input %s", s.Input)
				case s.Max != 0 && (!strings.Contains(string(desc[1]), rng) || !strings.Contains(string(row[1]), rng)):
					t.Errorf("the %s input's description or docs/action.md row does not say %s", s.Input, rng)
				}
				if s.Name == "rounds" && (!strings.Contains(string(desc[1]), fmt.Sprintf("Empty means %d,", runner.DefaultActionRounds)) ||
					!strings.HasPrefix(string(row[1]), fmt.Sprintf("`%d` |", runner.DefaultActionRounds)) ||
					!strings.Contains(string(desc[1]), fmt.Sprintf("perfgate ab to %d", ab.DefaultRounds)) ||
					!strings.Contains(string(row[1]), fmt.Sprintf("`perfgate ab` to %d", ab.DefaultRounds))) {
					t.Errorf("the rounds input's description or docs/action.md row does not give its default, %d, and perfgate ab's, %d",
						runner.DefaultActionRounds, ab.DefaultRounds)
				}
			}
			if s.Max == 0 {
				return
			}
			for _, v := range []int{lo, hi, lo - 1, hi + 1} {
				ok := v >= lo && v <= hi
				_, stderr, code := invoke(t, nil, "run", "--list", fmt.Sprintf("--%s=%d", s.Name, v))
				if refused := code == 2 && strings.Contains(stderr, "--"+s.Name+":"); refused == ok {
					t.Errorf("run --%s=%d: exit %d, %s (in range %d to %d: %v)", s.Name, v, code, stderr, lo, hi, ok)
				}
				if s.Input == "" {
					continue
				}
				input := func(name string) string {
					if name == s.Input {
						return strconv.Itoa(v)
					}
					return ""
				}
				if _, err := action.ReadSettings(input, func(string) string { return "" }, actionDefaults); (err == nil) != ok {
					t.Errorf("input %s: %d: %v (in range %d to %d: %v)", s.Input, v, err, lo, hi, ok)
				}
			}
		})
	}
}

// TestActionInputDefaults: an input's default in action.yml is the
// action's own (the one owner, tracker/action, applies it to an empty
// input): the settings read with the input empty and with it set to
// action.yml's default are the same, and docs/action.md's inputs table
// shows that default.
func TestActionInputDefaults(t *testing.T) {
	yml, actionDoc := readActionFiles(t)
	empty, err := actionSettingsWith("", "")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	inputs, _, _ := strings.Cut(string(yml), "\noutputs:")
	for _, m := range regexp.MustCompile(`(?m)^  ([a-z-]+):\n((?:    .*\n)+)`).FindAllStringSubmatch(inputs, -1) {
		d := regexp.MustCompile(`(?m)^    default: (.*)$`).FindStringSubmatch(m[2])
		if d == nil {
			continue
		}
		name, def := m[1], strings.Trim(d[1], `"`)
		if def == "" || strings.Contains(def, "${{") {
			continue
		}
		n++
		got, err := actionSettingsWith(name, def)
		if err != nil || !reflect.DeepEqual(got, empty) {
			t.Errorf("input %s: its action.yml default %q is not what the action does when it is empty (%v)", name, def, err)
		}
		if !regexp.MustCompile("(?m)^\\| `" + regexp.QuoteMeta(name) + "` \\| `" + regexp.QuoteMeta(def) + "` \\|").Match(actionDoc) {
			t.Errorf("docs/action.md does not give %s's default, %s", name, def)
		}
	}
	if n < 5 {
		t.Errorf("found %d inputs with a default in action.yml, want the lot", n)
	}
}

// TestBuiltinSuiteKeys: the keys a builtin suite of .perfgate.yml takes
// are the Config keys of runner.RunSettings, no more and no fewer, each
// the key of a flag of perfgate run and shown in docs/config.md's builtin
// suite; builtin.size takes the sizes perfgate run --size takes
// (kernels.Sizes), which run's synopsis, docs/gpu.md's and docs/config.md
// list, and the synopses list kernels.DTypes.
func TestBuiltinSuiteKeys(t *testing.T) {
	const builtin = "suites:\n  - name: a\n    builtin:\n      suite: memory\n"
	_, err := config.Parse(".perfgate.yml", []byte(builtin+"      no_such_key: 1\n"))
	allowed := regexp.MustCompile(`builtin\.no_such_key: unknown key \(allowed: (.*)\)`).FindStringSubmatch(fmt.Sprint(err))
	if allowed == nil {
		t.Fatalf("a builtin suite's unknown key: %v, want the keys it allows", err)
	}
	help, _, _ := invoke(t, nil, "run", "--help")
	doc, err := os.ReadFile("../../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile(`(?m)^    builtin:.*\n((?:      .*\n)+)`).FindSubmatch(doc)
	if block == nil {
		t.Fatal("docs/config.md shows no builtin suite")
	}
	var keys []string
	for _, s := range runner.RunSettings {
		section, key, _ := strings.Cut(s.Config, ".")
		if section != "builtin" {
			continue
		}
		keys = append(keys, key)
		if !regexp.MustCompile(`(?m)^  --` + regexp.QuoteMeta(s.Name) + `\b`).MatchString(help) {
			t.Errorf("%s mirrors --%s, which perfgate run does not have", s.Config, s.Name)
		}
		if !strings.Contains(string(block[1]), "      "+key+":") {
			t.Errorf("docs/config.md's builtin suite does not show %s", key)
		}
	}
	if slices.Sort(keys); !slices.Equal(strings.Split(allowed[1], ", "), keys) {
		t.Errorf("a builtin suite takes the keys %s; runner.RunSettings gives %s", allowed[1], strings.Join(keys, ", "))
	}
	for _, size := range append(slices.Clone(kernels.Sizes), "huge") {
		ok := slices.Contains(kernels.Sizes, size)
		if _, err := config.Parse(".perfgate.yml", []byte(builtin+"      size: "+size+"\n")); (err == nil) != ok {
			t.Errorf("builtin.size: %s: %v (a size of perfgate run: %v)", size, err, ok)
		}
		if _, stderr, code := invoke(t, nil, "run", "--list", "--size="+size); (code == 0) != ok {
			t.Errorf("run --size=%s: exit %d, %s (one of %v: %v)", size, code, stderr, kernels.Sizes, ok)
		}
	}
	gpu, err := os.ReadFile("../../docs/gpu.md")
	if err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`\[--dtype ([a-z0-9,]+)\]`).FindAllStringSubmatch(help+string(gpu), -1); len(m) != 2 || m[0][1] != m[1][1] || m[0][1] != strings.Join(kernels.DTypes, ",") {
		t.Errorf("perfgate run's and docs/gpu.md's synopses list the dtypes %q, not %v", m, kernels.DTypes)
	}
	want := slices.Sorted(slices.Values(kernels.Sizes))
	for where, list := range map[string][]string{
		"perfgate run's synopsis":        regexp.MustCompile(`\[--size ([a-z|]+)\]`).FindStringSubmatch(help),
		"docs/gpu.md's synopsis":         regexp.MustCompile(`\[--size ([a-z|]+)\]`).FindStringSubmatch(string(gpu)),
		"docs/config.md's builtin suite": regexp.MustCompile(`(?m)^      size: \S+ +# ([a-z| ]+) \(`).FindStringSubmatch(string(block[1])),
	} {
		if list == nil {
			t.Errorf("%s lists no sizes", where)
			continue
		}
		got := strings.FieldsFunc(list[1], func(r rune) bool { return r == '|' || r == ' ' })
		if slices.Sort(got); !slices.Equal(got, want) {
			t.Errorf("%s lists the sizes %s, not %v", where, list[1], kernels.Sizes)
		}
	}
}

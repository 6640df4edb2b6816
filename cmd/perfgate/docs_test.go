package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/db/dbtest"
)

// A docCommand is one perfgate command line of the README or docs/*.md.
type docCommand struct {
	where string // file:line
	args  []string
	// synopsis: the line shows a command's shape ([--flag], PATTERN, …),
	// so only its command and flags are checked.
	synopsis bool
}

var placeholder = regexp.MustCompile(`\[|…|\||\b[A-Z]{3,}\b|\bR\b|\bN\b`)

// docCommands extracts the perfgate command lines of fenced (not YAML or
// JSON) and indented code blocks: "perfgate X", "./perfgate X" and
// "go run ./cmd/perfgate X", joining "\" continuations, splitting "&&"
// chains and dropping "# comments".
func docCommands(t *testing.T) []docCommand {
	t.Helper()
	files, _ := filepath.Glob("../../docs/*.md")
	files = append([]string{"../../README.md", "../../examples/README.md"}, files...)
	var out []docCommand
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		fenced, lang := false, ""
		for i := 0; i < len(lines); i++ {
			l := lines[i]
			if s := strings.TrimSpace(l); strings.HasPrefix(s, "```") {
				fenced, lang = !fenced, strings.TrimPrefix(s, "```")
				continue
			}
			inBlock := (fenced && lang != "yaml" && lang != "yml" && lang != "json") ||
				(!fenced && strings.HasPrefix(l, "    ") && (i == 0 || strings.TrimSpace(lines[i-1]) == "" || strings.HasPrefix(lines[i-1], "    ")))
			if !inBlock {
				continue
			}
			where := filepath.Base(f) + ":" + strconv.Itoa(i+1)
			for i+1 < len(lines) {
				next := strings.TrimSpace(lines[i+1])
				switch {
				case strings.HasSuffix(strings.TrimSpace(l), `\`):
					l = strings.TrimSuffix(strings.TrimSpace(l), `\`) + " " + next
				case fenced && strings.HasPrefix(next, "[") && strings.HasPrefix(lines[i+1], " "):
					// A synopsis continued on an indented line of options.
					l = strings.TrimSpace(l) + " " + next
				default:
					next = ""
				}
				if next == "" {
					break
				}
				i++
			}
			for _, part := range strings.Split(stripComment(l), "&&") {
				part = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(part), "$ "))
				for _, prefix := range []string{"go run ./cmd/perfgate ", "./perfgate ", "perfgate "} {
					if rest, ok := strings.CutPrefix(part, prefix); ok {
						c := docCommand{where: where, args: shellWords(rest), synopsis: placeholder.MatchString(rest)}
						if c.synopsis {
							// A synopsis is not shell ("trend's selection"): split it on spaces.
							c.args = strings.Fields(rest)
							for i, w := range c.args {
								if strings.Contains(w, "*") && !strings.HasPrefix(w, "[") {
									c.args[i] = "\x00glob:" + w
								}
							}
						}
						out = append(out, c)
						break
					}
				}
			}
		}
	}
	return out
}

// stripComment drops a "# comment" outside quotes.
func stripComment(l string) string {
	q := rune(0)
	for i, r := range l {
		switch {
		case q != 0 && r == q:
			q = 0
		case q == 0 && (r == '\'' || r == '"'):
			q = r
		case q == 0 && r == '#' && (i == 0 || l[i-1] == ' '):
			return l[:i]
		}
	}
	return l
}

// shellWords splits a command line as sh would, quotes removed; a word
// with a * outside quotes is marked with a leading "\x00glob:".
func shellWords(s string) []string {
	var words []string
	var w strings.Builder
	in, q, glob := false, rune(0), false
	flush := func() {
		if in {
			if glob {
				words = append(words, "\x00glob:"+w.String())
			} else {
				words = append(words, w.String())
			}
		}
		w.Reset()
		in, glob = false, false
	}
	for _, r := range s {
		switch {
		case q != 0 && r == q:
			q = 0
		case q != 0:
			w.WriteRune(r)
		case r == '\'' || r == '"':
			q, in = r, true
		case r == ' ' || r == '\t':
			flush()
		default:
			if r == '*' {
				glob = true
			}
			w.WriteRune(r)
			in = true
		}
	}
	flush()
	return words
}

// gpuCommands need a GPU or run suites: their lines are checked like
// synopses (command and flags), not run.
var gpuCommands = []string{"run", "ab", "doctor", "action", "worker"}

// TestDocsCommands runs every perfgate command line of the README and the
// docs against the example data (examples/), as written: no usage error, no
// unknown flag. Synopsis lines and GPU commands are checked for their
// command and flags (issue 11, "docs examples run as written").
func TestDocsCommands(t *testing.T) {
	cmds := docCommands(t)
	if len(cmds) < 20 {
		t.Fatalf("found only %d perfgate command lines in the docs", len(cmds))
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, link := range []string{"examples", "docs"} {
		if err := os.Symlink(filepath.Join(repo, link), filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	// The files the examples name: a main-branch run and a PR run.
	copyFile(t, filepath.Join(repo, "examples/history/main-1.json"), filepath.Join(dir, "results.json"))
	copyFile(t, filepath.Join(repo, "examples/pr.json"), filepath.Join(dir, "pr.json"))
	os.MkdirAll(filepath.Join(dir, "pr"), 0o755)
	copyFile(t, filepath.Join(repo, "examples/pr.json"), filepath.Join(dir, "pr", "pr-1.json"))
	copyFile(t, filepath.Join(repo, "docs/results/h100-torch-attention.jsonl"), filepath.Join(dir, "h100-torch-attention.jsonl"))
	// A checkout, as users run perfgate in one (ingest reads the commit).
	abGit(t, dir, "init", "-q", "-b", "main")
	abGit(t, dir, "commit", "-q", "--allow-empty", "-m", "docs examples")
	vars := map[string]string{"PERFGATE_STORE": filepath.Join(dir, "store"), "PERFGATE_SPOOL": filepath.Join(dir, "spool")}
	if os.Getenv("PERFGATE_TEST_DATABASE_URL") != "" {
		vars["PERFGATE_DATABASE_URL"] = dbtest.FreshDatabase(t)
	}
	t.Chdir(dir)
	// The comparison report the chart synopsis names.
	report, stderr, code := invoke(t, vars, "compare", "--format", "json", "--baseline", "results.json", "--candidate", "pr.json")
	if code != 0 && code != 1 {
		t.Fatalf("compare for report.json: exit %d\n%s", code, stderr)
	}
	if err := os.WriteFile("report.json", []byte(report), 0o644); err != nil {
		t.Fatal(err)
	}
	ran := 0
	defer func() { t.Logf("%d command lines: %d run, the rest checked for their flags", len(cmds), ran) }()
	for _, c := range cmds {
		name := c.where + " perfgate " + strings.Join(c.args, " ")
		if len(c.args) == 0 || commands[c.args[0]] == nil {
			t.Errorf("%s: no such command", name)
			continue
		}
		gpu := slices.Contains(gpuCommands, c.args[0]) && !slices.Contains(c.args, "--list")
		if c.synopsis || gpu {
			checkDocFlags(t, name, c.args)
		}
		args := c.args
		if c.synopsis && !gpu {
			// Run the synopsis at its simplest, placeholders filled in.
			var ok bool
			if args, ok = synopsisExample(args); !ok {
				t.Errorf("%s: no example values for its placeholders (add them to synopsisValues)", name)
				continue
			}
			name += " (as: perfgate " + strings.Join(args, " ") + ")"
		} else if c.synopsis || gpu {
			continue
		}
		args = expandGlobs(t, args)
		if args[0] == "migrate" && vars["PERFGATE_DATABASE_URL"] == "" {
			t.Logf("%s: not run (no PERFGATE_TEST_DATABASE_URL)", name)
			continue
		}
		ran++
		_, stderr, code := invoke(t, vars, args...)
		if code != 0 && (code != 1 || !slices.Contains([]string{"check", "compare", "demo"}, args[0])) { // 1: a regression found
			t.Errorf("%s: exit %d\n%s", name, code, stderr)
		}
	}
}

// synopsisValues are the example data's values for the placeholders of
// the docs' synopsis lines.
var synopsisValues = map[string]string{
	"PATTERN":     "add/dtype=fp32/*",
	"GLOB":        "add/dtype=fp32/*",
	"REPORT.json": "report.json",
	"DIR":         "site-out",
}

// synopsisExample turns a synopsis into the simplest command it allows:
// [optional] parts dropped, the first of "a|b" alternatives, placeholders
// replaced by synopsisValues. ok is false if a placeholder is left.
func synopsisExample(words []string) (args []string, ok bool) {
	depth := 0
	for _, w := range words {
		opens, closes := strings.Count(w, "["), strings.Count(w, "]")
		optional := depth > 0 || strings.HasPrefix(w, "[")
		depth += opens - closes
		if optional {
			continue
		}
		if v, found := synopsisValues[w]; found {
			w = v
		} else if first, _, alt := strings.Cut(w, "|"); alt && !strings.HasPrefix(w, "--") {
			w = first
		}
		if placeholder.MatchString(w) {
			return nil, false
		}
		args = append(args, w)
	}
	return args, depth == 0
}

// checkDocFlags checks that the command of a synopsis line exists and has
// every --flag the line names.
func checkDocFlags(t *testing.T, name string, args []string) {
	t.Helper()
	cmd := args[:1]
	if args[0] == "chart" && len(args) > 1 {
		cmd = args[:2]
	}
	usage, _, code := invoke(t, nil, append(slices.Clone(cmd), "--help")...)
	if code != 0 {
		t.Errorf("%s: %s --help: exit %d", name, strings.Join(cmd, " "), code)
		return
	}
	for _, a := range args {
		f := regexp.MustCompile(`^\[?(--[a-z][a-z0-9-]*)`).FindStringSubmatch(a)
		if f != nil && f[1] != "--help" && !regexp.MustCompile(`(?m)^  `+regexp.QuoteMeta(f[1])+`( |$)`).MatchString(usage) {
			t.Errorf("%s: %s has no flag %s", name, strings.Join(cmd, " "), f[1])
		}
	}
}

func expandGlobs(t *testing.T, args []string) []string {
	var out []string
	for _, a := range args {
		if g, ok := strings.CutPrefix(a, "\x00glob:"); ok {
			m, _ := filepath.Glob(g)
			if len(m) == 0 {
				t.Errorf("%s matches no file of the example data", g)
			}
			out = append(out, m...)
			continue
		}
		out = append(out, a)
	}
	return out
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

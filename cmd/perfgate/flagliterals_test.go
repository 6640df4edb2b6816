package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/internal/flagtest"
)

// TestNoFlagLiteralOutsideCmd: no Go file outside cmd/ (tests aside) holds
// a string literal that spells a perfgate flag ("--rounds"): flag
// spellings live in cmd/perfgate, which renders the typed errors of the
// libraries (a setting's name, not its flag) and hands child processes a
// serialised spec, not re-built flags. The flags are every flag that a
// command's --help lists, so the list cannot go stale; other programs'
// flags (git rev-parse --show-toplevel, NVRTC's --std) are not among them.
func TestNoFlagLiteralOutsideCmd(t *testing.T) {
	flags := registeredFlags(t)
	if len(flags) < 50 {
		t.Fatalf("found %d flags in the commands' --help, want the lot", len(flags))
	}
	re := regexp.MustCompile(`--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?:[^A-Za-z0-9_-]|$)`)
	root := filepath.Join("..", "..")
	found := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "cmd" || d.Name() == "testdata" || d.Name() == "third_party" || (strings.HasPrefix(d.Name(), ".") && rel != ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for _, m := range re.FindAllStringSubmatch(s, -1) {
				if flags[m[1]] {
					found[rel] = append(found[rel], "--"+m[1])
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for file, lits := range found {
		sort.Strings(lits)
		t.Errorf("%s spells perfgate flags %s: name the setting in a typed error and let cmd/perfgate spell it", file, strings.Join(slices.Compact(lits), " "))
	}
}

// registeredFlags are the flags every command's --help lists.
func registeredFlags(t *testing.T) map[string]bool {
	t.Helper()
	line := regexp.MustCompile(`(?m)^  --([a-z0-9-]+)`)
	flags := map[string]bool{}
	for name := range commands {
		stdout, _, _ := invoke(t, nil, name, "--help")
		for _, m := range line.FindAllStringSubmatch(stdout, -1) {
			flags[m[1]] = true
		}
	}
	return flags
}

// TestSpellFlagAsCmd: the libraries' tests (internal/flagtest) spell a
// setting's flag as this command does, so the messages they assert are
// the ones users read.
func TestSpellFlagAsCmd(t *testing.T) {
	for _, name := range []string{"rounds", "max-time", "reference"} {
		if got, want := flagtest.Spell(name), cli.SpellFlag(name); got != want {
			t.Errorf("flagtest spells %s as %q, cmd/perfgate as %q", name, got, want)
		}
	}
}

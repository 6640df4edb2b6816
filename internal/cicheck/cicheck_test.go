package cicheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const root = "../.."

// shortSkipped returns the top-level tests that call testing.Short(), as
// "dir.TestName", in the repository's Go test files.
func shortSkipped(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{} // name → file
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Test") || fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Short" {
					if id, ok := sel.X.(*ast.Ident); ok && id.Name == "testing" {
						out[fn.Name.Name] = path
					}
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func readRun(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestHeavyTestsRun: every test that skips with -short is in .ci/run's
// heavy list, which names no test that does not (one left out would run
// nowhere in CI), and the no-race step runs the packages that hold them.
func TestHeavyTestsRun(t *testing.T) {
	run := readRun(t)
	var listed []string
	for _, m := range regexp.MustCompile(`(?m)^heavy\+?='([^']*)'`).FindAllStringSubmatch(run, -1) {
		for _, name := range strings.Split(m[1], "|") {
			if name != "" {
				listed = append(listed, name)
			}
		}
	}
	if len(listed) == 0 {
		t.Fatal(".ci/run has no heavy='…' list")
	}
	step := regexp.MustCompile(`(?m)^go test [^\n]*-run "\^\(\$heavy\)\\\$"([^\n]*)$`).FindStringSubmatch(run)
	if step == nil {
		t.Fatal(`.ci/run has no go test -run "^($heavy)\$" step`)
	}
	skipped := shortSkipped(t)
	for name, file := range skipped {
		if !slices.Contains(listed, name) {
			t.Errorf("%s (%s) skips with -short but .ci/run's heavy list does not name it: it would run nowhere in CI", name, file)
		}
		dir := "./" + filepath.ToSlash(strings.TrimPrefix(filepath.Dir(file), root+"/"))
		if !slices.Contains(strings.Fields(step[1]), dir) {
			t.Errorf("%s is in %s, which .ci/run's no-race step does not test", name, dir)
		}
	}
	for _, name := range listed {
		if _, ok := skipped[name]; !ok {
			t.Errorf(".ci/run's heavy list names %s, which does not skip with -short (or no longer exists)", name)
		}
	}
}

// TestRunHygiene: each go test in .ci/run has an explicit -timeout (Go's
// default of 10 minutes ended a loaded run with a panic, issue 30), and
// the script leaves the machine's apt sources as they are.
func TestRunHygiene(t *testing.T) {
	run := readRun(t)
	n := 0
	for _, line := range strings.Split(run, "\n") {
		if l := strings.TrimSpace(line); strings.HasPrefix(l, "go test ") {
			n++
			if !strings.Contains(l, " -timeout ") {
				t.Errorf(".ci/run: %q has no -timeout", l)
			}
		}
	}
	if n < 3 {
		t.Errorf(".ci/run runs go test %d times, want the race, no-race and allocation steps", n)
	}
	for _, bad := range []string{"/etc/apt", "sources.list.d", "add-apt-repository"} {
		if strings.Contains(run, bad) {
			t.Errorf(".ci/run mentions %s: it must not change the machine's apt configuration", bad)
		}
	}
}

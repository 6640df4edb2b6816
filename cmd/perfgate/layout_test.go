package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The layout rule of cmd/perfgate (issue 11): a command's files are
// cmd_NAME.go and cmd_NAME_*.go, NAME a command (cmd_action_skip_test.go is
// the action's). A command file uses no top-level name (function, type,
// variable, constant) declared in another command's files: what two
// commands share lives in a file whose name does not start with "cmd_"
// (main.go, store.go, compareflags.go, …), or in a package outside cmd.
// Shared files, in turn, use no name declared in a command file.
// Methods are not checked: they are reached through a value of a type,
// and the type's name is.

// cmdFile is one non-test file of package main.
type cmdFile struct {
	name    string
	command string // "" for a shared file
	f       *ast.File
	lines   int
}

func parseCmdFiles(t *testing.T) []cmdFile {
	t.Helper()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []cmdFile
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, p, src, 0) // with object resolution: f.Unresolved
		if err != nil {
			t.Fatal(err)
		}
		if f.Name.Name != "main" {
			continue // a //go:build ignore helper, say
		}
		cf := cmdFile{name: p, f: f, lines: strings.Count(string(src), "\n")}
		if rest, ok := strings.CutPrefix(strings.TrimSuffix(p, ".go"), "cmd_"); ok {
			cf.command, _, _ = strings.Cut(rest, "_")
		}
		files = append(files, cf)
	}
	return files
}

// topLevel returns the names f declares at package level (not methods).
func topLevel(f *ast.File) []string {
	var names []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name != "init" && d.Name.Name != "main" {
				names = append(names, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					names = append(names, s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.Name != "_" {
							names = append(names, n.Name)
						}
					}
				}
			}
		}
	}
	return names
}

func TestCommandFilesShareNothing(t *testing.T) {
	files := parseCmdFiles(t)
	owner := map[string]cmdFile{} // top-level name → the command file declaring it
	for _, cf := range files {
		if cf.command == "" {
			continue
		}
		for _, n := range topLevel(cf.f) {
			owner[n] = cf
		}
	}
	if len(owner) == 0 {
		t.Fatal("no command file declares anything: the test reads the wrong directory")
	}
	var bad []string
	for _, cf := range files {
		seen := map[string]bool{}
		// Unresolved holds the identifiers the file uses but does not
		// declare: names of other files of the package, and builtins.
		for _, id := range cf.f.Unresolved {
			o, ok := owner[id.Name]
			if !ok || o.command == cf.command || seen[id.Name] {
				continue
			}
			seen[id.Name] = true
			bad = append(bad, cf.name+" uses "+id.Name+", declared in "+o.name)
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
}

// maxCmdLines bounds the non-test code of package main (issue 11): the
// command is wiring (flags, an options struct, a call into a library), and
// logic that grows here belongs in the package that owns its concern.
const maxCmdLines = 2000

// TestCmdLineBudget counts the lines of the non-test files of package main
// (not cmd/perfgate/internal/...) and fails over maxCmdLines, naming the
// biggest files: the places to look for logic to move out.
func TestCmdLineBudget(t *testing.T) {
	files := parseCmdFiles(t)
	total := 0
	for _, cf := range files {
		total += cf.lines
	}
	if total <= maxCmdLines {
		return
	}
	sort.Slice(files, func(i, j int) bool { return files[i].lines > files[j].lines })
	var biggest []string
	for _, cf := range files[:min(len(files), 8)] {
		biggest = append(biggest, fmt.Sprintf("%s %d", cf.name, cf.lines))
	}
	t.Errorf("cmd/perfgate has %d lines of non-test code, more than %d: move logic to the package that owns it "+
		"(a tracker/… package, runner, ab, or cmd/perfgate/internal/…). The biggest files: %s",
		total, maxCmdLines, strings.Join(biggest, ", "))
}

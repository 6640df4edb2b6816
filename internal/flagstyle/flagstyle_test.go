// Package flagstyle holds the test that keeps perfgate's messages naming
// flags as users type them: --flag, never -flag.
package flagstyle

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// singleDash matches a flag written with one dash in a message: "-rounds:",
// "(-base", "default of -%s". A negative number (-1) does not match.
var singleDash = regexp.MustCompile("(^|[\\s(,;'\"`])-(%s|[a-z][a-z0-9]*(-[a-z0-9]+)*)([\\s:,;)'\"`]|$)")

// goFlags are other tools' flags that messages quote as those tools spell
// them (go build -tags, nvidia-cuda-mps-control -f, go test -update for
// internal/golden's files).
var goFlags = map[string]bool{"tags": true, "f": true, "update": true}

// messageFuncs are the calls whose first string argument is a message a
// user reads.
var messageFuncs = map[string]bool{"Errorf": true, "New": true, "UsageErrorf": true, "inputErr": true, "CheckChoice": true}

func TestMessagesSpellFlagsWithTwoDashes(t *testing.T) {
	root := filepath.Join("..", "..")
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "vendor" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		checked++
		for _, bad := range singleDashMessages(t, path) {
			t.Errorf("%s: message names a flag with one dash (write --flag): %s", bad.pos, bad.text)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("checked only %d files under %s: the walk is broken", checked, root)
	}
}

func TestSingleDashPattern(t *testing.T) {
	tests := []struct {
		msg  string
		want bool
	}{
		{"-rounds: must be from 1 to 100", true},
		{"%s (default of -%s): %q is not a number", true},
		{"-filter, -op, -dtype: they select nothing", true},
		{"--rounds: must be from 1 to 100", false},
		{"%s (default of --%s)", false},
		{"a change of -3.5%", false},
		{"exit status -1", false},
		{"foo-bar is not a flag", false},
	}
	for _, tt := range tests {
		t.Run(tt.msg, func(t *testing.T) {
			if got := hasSingleDashFlag(tt.msg); got != tt.want {
				t.Errorf("hasSingleDashFlag(%q) = %v, want %v", tt.msg, got, tt.want)
			}
		})
	}
}

func hasSingleDashFlag(s string) bool {
	for _, m := range singleDash.FindAllStringSubmatch(s, -1) {
		if !goFlags[m[2]] {
			return true
		}
	}
	return false
}

type finding struct {
	pos  token.Position
	text string
}

// singleDashMessages returns the message literals of path's calls to
// messageFuncs that name a flag with one dash.
func singleDashMessages(t *testing.T, path string) []finding {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []finding
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) == 0 || !messageFuncs[funcName(call.Fun)] {
			return true
		}
		for _, arg := range call.Args {
			lit, ok := arg.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				continue
			}
			if s, err := strconv.Unquote(lit.Value); err == nil && hasSingleDashFlag(s) {
				out = append(out, finding{fset.Position(lit.Pos()), s})
			}
		}
		return true
	})
	return out
}

func funcName(e ast.Expr) string {
	switch f := e.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}

package archdoc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestOneGoldenHelper: golden files are compared and rewritten by
// internal/golden alone. A test file elsewhere that declares an "update"
// flag, or a function that reads and writes files under testdata (the
// shape of the helper that was once copied into eight packages and
// drifted), fails here.
func TestOneGoldenHelper(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, "../../"))
		if d.IsDir() {
			if rel == "third_party" || rel == "internal/golden" || strings.HasPrefix(d.Name(), ".") && path != "../.." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, p := range goldenHelpers(f) {
			t.Errorf("%s:%d: %s: use internal/golden (golden.Check, golden.CheckFunc, golden.Update)", rel, fset.Position(p.pos).Line, p.what)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A finding is a golden helper found in a file.
type finding struct {
	pos  token.Pos
	what string
}

// goldenHelpers lists the "update" flags f declares and the functions of f
// that write a file under testdata.
func goldenHelpers(f *ast.File) []finding {
	var out []finding
	ast.Inspect(f, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && isFlagNamed(call, "update") {
			out = append(out, finding{call.Pos(), `a flag named "update"`})
		}
		return true
	})
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if ok && fn.Body != nil && writesTestdata(fn.Body) {
			out = append(out, finding{fn.Pos(), "func " + fn.Name.Name + " writes a file under testdata"})
		}
	}
	return out
}

// writesTestdata reports whether body calls os.WriteFile on a path that
// names "testdata", directly or through a variable body assigned it to.
func writesTestdata(body *ast.BlockStmt) bool {
	paths := map[string]bool{} // variables holding a path under testdata
	ast.Inspect(body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
			for i, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && namesTestdata(as.Rhs[i], paths) {
					paths[id.Name] = true
				}
			}
		}
		return true
	})
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && isCall(call, "os", "WriteFile") && len(call.Args) > 0 {
			found = found || namesTestdata(call.Args[0], paths)
		}
		return !found
	})
	return found
}

// namesTestdata reports whether e holds the string "testdata" (or a path
// starting with it) or one of the variables in paths.
func namesTestdata(e ast.Expr, paths map[string]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			s, err := strconv.Unquote(n.Value)
			found = found || n.Kind == token.STRING && err == nil && (s == "testdata" || strings.HasPrefix(s, "testdata/"))
		case *ast.Ident:
			found = found || paths[n.Name]
		}
		return !found
	})
	return found
}

// isFlagNamed reports whether call declares a flag (flag.Bool, flag.String,
// flag.BoolVar, …) called name.
func isFlagNamed(call *ast.CallExpr, name string) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "flag" {
		return false
	}
	for _, arg := range call.Args {
		if lit, ok := arg.(*ast.BasicLit); ok && lit.Kind == token.STRING && lit.Value == strconv.Quote(name) {
			return true
		}
	}
	return false
}

// isCall reports whether call is pkg.fn(…).
func isCall(call *ast.CallExpr, pkg, fn string) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != fn {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg
}

// TestGoldenHelpersFound: the shapes the copied helpers had are found, and
// a test that writes elsewhere and reads testdata is not.
func TestGoldenHelpersFound(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		want      int
	}{
		{"flag and helper", `package p
var update = flag.Bool("update", false, "rewrite")
func golden(t *testing.T, name, got string) {
	path := filepath.Join("testdata", name)
	if *update {
		os.WriteFile(path, []byte(got), 0o644)
		return
	}
	want, _ := os.ReadFile(path)
	_ = want
}`, 2},
		{"inline in a test", `package p
func TestX(t *testing.T) {
	t.Run("a", func(t *testing.T) {
		g := filepath.Join("testdata", "golden", "a.json")
		if os.Getenv("REGEN") != "" {
			os.WriteFile(g, nil, 0o644)
		}
	})
}`, 1},
		{"BoolVar", `package p
var regen bool
func init() { flag.BoolVar(&regen, "update", false, "") }`, 1},
		{"reads testdata, writes a temporary file", `package p
func TestY(t *testing.T) {
	in, _ := os.ReadFile(filepath.Join("testdata", "in.json"))
	out := filepath.Join(t.TempDir(), "page.html")
	os.WriteFile(out, in, 0o644)
}`, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, err := parser.ParseFile(token.NewFileSet(), "x_test.go", tt.src, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got := goldenHelpers(f); len(got) != tt.want {
				t.Errorf("found %v; want %d findings", got, tt.want)
			}
		})
	}
}

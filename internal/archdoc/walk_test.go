package archdoc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/internal/golden"
)

// The walk of a flow, as a reader follows it: from an entry function,
// every call into a function of the project that the flow ran, in the
// order the calls are written, each function read once (depth first).
// What ran comes from a coverage profile of a test that runs the flow: a
// call is followed only when the block that holds it ran, and an interface
// call goes to the project's implementations that ran. A function literal
// is read where it is written, as part of its function. Calls through
// func values are not followed: their literal was read where it is.
//
// The walk reads the functions of the packages that run the flow: the
// command (cmd/perfgate), tracker/check and tracker/action, and every
// package that imports one of them. A call into any other project package
// (a library: the statistics, the store, the renderers) is a stop whose
// callees are not read; what it does is its doc comment.

// A stop is one function the walk reads, and the package of the function
// whose call led there.
type stop struct {
	pkg, file, name string
	from            string
}

// A walkResult counts a walk: its stops, the files and packages they are
// in, and the stops that go back to a file (a package) the walk had left.
type walkResult struct {
	stops                   []stop
	files, pkgs             int
	fileReturns, pkgReturns int
	packages                []string
	crossings               int // stops in another package than the stop before
	callbacks               int // calls from another package into the entry's
}

func (w walkResult) String() string {
	return fmt.Sprintf("%d stops in %d files of %d packages; %d returns to a file already left, %d to a package already left; calls back into %s: %d",
		len(w.stops), w.files, w.pkgs, w.fileReturns, w.pkgReturns, w.stops[0].pkg, w.callbacks)
}

// count fills in the totals of w.stops.
func (w *walkResult) count() {
	files, pkgs := map[string]bool{}, map[string]bool{}
	var last stop
	for i, s := range w.stops {
		if i > 0 && s.pkg == w.stops[0].pkg && s.from != s.pkg {
			w.callbacks++
		}
		if i > 0 && s.file != last.file && files[s.file] {
			w.fileReturns++
		}
		if i > 0 && s.pkg != last.pkg {
			w.crossings++
			if pkgs[s.pkg] {
				w.pkgReturns++
			}
		}
		files[s.file], pkgs[s.pkg] = true, true
		last = s
	}
	w.files, w.pkgs = len(files), len(pkgs)
	for p := range pkgs {
		w.packages = append(w.packages, p)
	}
	sort.Strings(w.packages)
}

// A block is a coverage block: lines and columns, and whether it ran.
type block struct {
	l0, c0, l1, c1 int
	ran            bool
}

// coverage reads a coverage profile (go test -coverprofile) into the
// blocks of each file, by path relative to the module root.
func coverage(r io.Reader) (map[string][]block, error) {
	out := map[string][]block{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "mode:") || line == "" {
			continue
		}
		colon := strings.LastIndex(line, ":")
		f := strings.Fields(line[colon+1:])
		if colon < 0 || len(f) != 3 {
			return nil, fmt.Errorf("coverage profile: malformed line %q", line)
		}
		var b block
		if _, err := fmt.Sscanf(f[0], "%d.%d,%d.%d", &b.l0, &b.c0, &b.l1, &b.c1); err != nil {
			return nil, fmt.Errorf("coverage profile: %q: %v", line, err)
		}
		n, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, fmt.Errorf("coverage profile: %q: %v", line, err)
		}
		b.ran = n > 0
		file := strings.TrimPrefix(line[:colon], module)
		out[file] = append(out[file], b)
	}
	return out, sc.Err()
}

// ran reports whether the code at p ran: a block holding it ran.
func ran(blocks []block, p token.Position) bool {
	for _, b := range blocks {
		after := p.Line > b.l0 || (p.Line == b.l0 && p.Column >= b.c0)
		before := p.Line < b.l1 || (p.Line == b.l1 && p.Column <= b.c1)
		if after && before && b.ran {
			return true
		}
	}
	return false
}

// A program is the project's packages, type-checked from source.
type program struct {
	root  string
	fset  *token.FileSet
	info  *types.Info
	funcs map[*types.Func]*ast.FuncDecl
	pkgOf map[*types.Func]string // the function's package, relative to the module
	named []*types.Named         // the project's named types, for interface calls
	flow  map[string]bool        // the packages whose functions' calls are followed
}

// flowPackages are the packages that run a flow: these, and every
// package that imports one of them.
var flowPackages = []string{"cmd/perfgate", "tracker/check", "tracker/action"}

// load type-checks the project packages pattern needs (default build
// tags, no tests), each from source; the rest come from export data.
func load(root, pattern string) (*program, error) {
	cmd := exec.Command("go", "list", "-deps", "-export", "-json=ImportPath,Dir,GoFiles,Export,Imports", pattern)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v\n%s", err, stderr.String())
	}
	type listed struct {
		ImportPath, Dir, Export string
		GoFiles                 []string
		Imports                 []string
	}
	var order []listed
	exports := map[string]string{}
	for dec := json.NewDecoder(bytes.NewReader(out)); dec.More(); {
		var p listed
		if err := dec.Decode(&p); err != nil {
			return nil, err
		}
		exports[p.ImportPath] = p.Export
		if strings.HasPrefix(p.ImportPath, module) {
			order = append(order, p)
		}
	}
	prog := &program{root: root, fset: token.NewFileSet(), funcs: map[*types.Func]*ast.FuncDecl{}, pkgOf: map[*types.Func]string{}, flow: map[string]bool{},
		info: &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}, Defs: map[*ast.Ident]types.Object{}}}
	checked := map[string]*types.Package{}
	gc := importer.ForCompiler(prog.fset, "gc", func(path string) (io.ReadCloser, error) {
		if exports[path] == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(exports[path])
	}).(types.ImporterFrom)
	imp := importerFunc(func(path string) (*types.Package, error) {
		if p, ok := checked[path]; ok {
			return p, nil
		}
		return gc.ImportFrom(path, root, 0)
	})
	for _, p := range order { // go list -deps lists a package after what it imports
		var files []*ast.File
		for _, name := range p.GoFiles {
			f, err := parser.ParseFile(prog.fset, filepath.Join(p.Dir, name), nil, parser.SkipObjectResolution)
			if err != nil {
				return nil, err
			}
			files = append(files, f)
		}
		conf := types.Config{Importer: imp}
		tp, err := conf.Check(p.ImportPath, prog.fset, files, prog.info)
		if err != nil {
			return nil, fmt.Errorf("type-check %s: %v", p.ImportPath, err)
		}
		checked[p.ImportPath] = tp
		pkg := strings.TrimPrefix(p.ImportPath, module)
		prog.index(pkg, tp, files)
		for _, imp := range append([]string{p.ImportPath}, p.Imports...) {
			if slices.Contains(flowPackages, strings.TrimPrefix(imp, module)) {
				prog.flow[pkg] = true
			}
		}
	}
	return prog, nil
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// index records the functions of a package and its named types.
func (prog *program) index(pkg string, tp *types.Package, files []*ast.File) {
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := prog.info.Defs[fd.Name].(*types.Func); ok {
					prog.funcs[fn], prog.pkgOf[fn] = fd, pkg
				}
			}
		}
	}
	for _, name := range tp.Scope().Names() {
		if tn, ok := tp.Scope().Lookup(name).(*types.TypeName); ok {
			if n, ok := tn.Type().(*types.Named); ok && !types.IsInterface(n) && n.TypeParams() == nil {
				prog.named = append(prog.named, n)
			}
		}
	}
}

// walk reads the flow from entry (package path relative to the module,
// and function name; "T.M" for a method) through what the profile says
// ran.
func (prog *program) walk(entryPkg, entry string, cov map[string][]block) (walkResult, error) {
	var start *types.Func
	for fn, pkg := range prog.pkgOf {
		if pkg == entryPkg && funcName(fn) == entry {
			start = fn
		}
	}
	if start == nil {
		return walkResult{}, fmt.Errorf("no function %s in %s", entry, entryPkg)
	}
	var w walkResult
	seen := map[*types.Func]bool{}
	var visit func(fn *types.Func, from string)
	visit = func(fn *types.Func, from string) {
		seen[fn] = true
		fd := prog.funcs[fn]
		file := prog.rel(prog.fset.Position(fd.Pos()).Filename)
		w.stops = append(w.stops, stop{pkg: prog.pkgOf[fn], file: file, name: funcName(fn), from: from})
		if !prog.flow[prog.pkgOf[fn]] {
			return // a library's function
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !ran(cov[file], prog.fset.Position(call.Pos())) {
				return true
			}
			for _, callee := range prog.callees(call) {
				if !seen[callee] && prog.ran(callee, cov) {
					visit(callee, prog.pkgOf[fn])
				}
			}
			return true
		})
	}
	visit(start, entryPkg)
	w.count()
	return w, nil
}

// ran reports whether any of fn's body ran.
func (prog *program) ran(fn *types.Func, cov map[string][]block) bool {
	fd := prog.funcs[fn]
	blocks := cov[prog.rel(prog.fset.Position(fd.Pos()).Filename)]
	start, end := prog.fset.Position(fd.Body.Lbrace), prog.fset.Position(fd.Body.Rbrace)
	for _, b := range blocks {
		if b.ran && (b.l0 > start.Line || (b.l0 == start.Line && b.c0 >= start.Column)) && (b.l1 < end.Line || (b.l1 == end.Line && b.c1 <= end.Column+1)) {
			return true
		}
	}
	return false
}

// callees are the project functions a call may reach: the function or
// method it names, or, for a method of an interface, every project type's
// method that implements it.
func (prog *program) callees(call *ast.CallExpr) []*types.Func {
	fun := ast.Unparen(call.Fun)
	if ix, ok := fun.(*ast.IndexExpr); ok {
		fun = ix.X
	}
	var obj types.Object
	switch f := fun.(type) {
	case *ast.Ident:
		obj = prog.info.Uses[f]
	case *ast.SelectorExpr:
		if sel, ok := prog.info.Selections[f]; ok {
			if sel.Kind() != types.MethodVal {
				return nil // a func-valued field
			}
			// A method of an interface, maybe embedded in a struct.
			if recv := sel.Obj().(*types.Func).Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) {
				return prog.implementations(recv.Type().Underlying().(*types.Interface), sel.Obj().Name())
			}
		}
		obj = prog.info.Uses[f.Sel]
	}
	fn, ok := obj.(*types.Func)
	if !ok {
		return nil
	}
	fn = fn.Origin()
	if _, ok := prog.funcs[fn]; !ok {
		return nil
	}
	return []*types.Func{fn}
}

// implementations are the methods named name of the project's types that
// implement iface, in a fixed order.
func (prog *program) implementations(iface *types.Interface, name string) []*types.Func {
	var out []*types.Func
	for _, n := range prog.named {
		for _, t := range []types.Type{n, types.NewPointer(n)} {
			if !types.Implements(t, iface) {
				continue
			}
			sel := types.NewMethodSet(t).Lookup(n.Obj().Pkg(), name)
			if sel == nil {
				continue
			}
			if fn, ok := sel.Obj().(*types.Func); ok {
				if _, ok := prog.funcs[fn.Origin()]; ok {
					out = append(out, fn.Origin())
				}
			}
			break
		}
	}
	return out
}

// rel is a file's path relative to the module root.
func (prog *program) rel(path string) string {
	r, err := filepath.Rel(prog.root, path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(r)
}

// funcName is "F" or "T.M".
func funcName(fn *types.Func) string {
	if recv := fn.Signature().Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := t.(*types.Named); ok {
			return n.Obj().Name() + "." + fn.Name()
		}
	}
	return fn.Name()
}

var walkRoot = flag.String("walkroot", "../..", "the checkout whose flows TestWalkActionRun and TestWalkRunRounds walk (another worktree: the numbers before a change)")

// A flow is a walk that docs/architecture.md counts: the cmd/perfgate test
// that runs it in process, the function it starts at, and the heading of
// the section whose "- after:" line gives its counts.
type flow struct {
	test, entry, section string
}

// TestWalkActionRun walks perfgate action on a pull request with a results
// file (TestActionLongComment runs it in process against the fake GitHub),
// from cmd/perfgate's runAction, and checks the counts that
// docs/architecture.md gives ("Walking the action"; -update rewrites its
// "after" line). With -v it lists the stops; -walkroot walks another
// checkout (and checks nothing).
func TestWalkActionRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a cmd/perfgate test with every package instrumented for coverage")
	}
	testWalk(t, flow{test: "TestActionLongComment", entry: "runAction", section: "## Walking the action"})
}

// TestWalkRunRounds walks perfgate run --rounds 3 over a configuration's
// three command suites (TestRunRoundsConfig), from cmd/perfgate's runRun,
// as TestWalkActionRun walks the action. The rounds' child processes are
// not walked: they are the same command again.
func TestWalkRunRounds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a cmd/perfgate test with every package instrumented for coverage")
	}
	testWalk(t, flow{test: "TestRunRoundsConfig", entry: "runRun", section: "## Walking run --rounds 3"})
}

func testWalk(t *testing.T, fl flow) {
	root, err := filepath.Abs(*walkRoot)
	if err != nil {
		t.Fatal(err)
	}
	profile := filepath.Join(t.TempDir(), "cover.out")
	cmd := exec.Command("go", "test", "-count=1", "-run", "^"+fl.test+"$", "-coverpkg="+module+"...", "-coverprofile="+profile, "./cmd/perfgate")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", cmd.Args, err, out)
	}
	f, err := os.Open(profile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cov, err := coverage(f)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := load(root, "./cmd/perfgate")
	if err != nil {
		t.Fatal(err)
	}
	w, err := prog.walk("cmd/perfgate", fl.entry, cov)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range w.stops {
		t.Logf("%3d %s %s", i+1, s.file, s.name)
	}
	t.Logf("%s: %s", root, w)
	t.Logf("packages: %s", strings.Join(w.packages, " "))
	if *walkRoot != "../.." {
		return
	}
	doc, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	sec := bytes.Index(doc, []byte("\n"+fl.section+"\n"))
	if sec < 0 {
		t.Fatalf("%s has no section %q", docPath, fl.section)
	}
	want := fmt.Sprintf("- after: %s\n", w)
	i := bytes.Index(doc[sec:], []byte("\n- after: "))
	if i >= 0 {
		i += sec
		if end := bytes.Index(doc[sec+1:], []byte("\n## ")); end >= 0 && i > sec+1+end {
			i = -1 // the line is in a later section
		}
	}
	if i >= 0 && bytes.HasPrefix(doc[i+1:], []byte(want)) {
		return
	}
	if golden.Update() && i >= 0 {
		j := i + 1 + bytes.IndexByte(doc[i+1:], '\n') + 1
		out := append(append(append([]byte{}, doc[:i+1]...), want...), doc[j:]...)
		if err := os.WriteFile(docPath, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: section %q does not say the walk's counts (go test ./internal/archdoc -run %s -update rewrites its line); want the line %q", docPath, fl.section, t.Name(), want)
}

package archdoc

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/internal/golden"
)

const (
	module  = "github.com/perfgate/perfgate/"
	docPath = "../../docs/architecture.md"
	begin   = "<!-- imports:begin (internal/archdoc writes this; go test ./internal/archdoc -update) -->"
	end     = "<!-- imports:end -->"
)

// left out of the diagram: sample programs and documentation tooling.
var skip = regexp.MustCompile(`^(docs|examples)/`)

// imports returns each project package (its path in the module) and the
// project packages it imports, from 'go list' under the default build
// tags.
func imports(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./...")
	cmd.Dir = "../.."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	graph := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		pkg := strings.TrimPrefix(fields[0], module)
		if skip.MatchString(pkg) || pkg == "internal/archdoc" {
			continue
		}
		graph[pkg] = []string{}
		for _, imp := range fields[1:] {
			if dep, ok := strings.CutPrefix(imp, module); ok {
				graph[pkg] = append(graph[pkg], dep)
			}
		}
		sort.Strings(graph[pkg])
	}
	return graph
}

// diagram draws graph as a Mermaid flowchart, nodes and edges sorted.
func diagram(graph map[string][]string) string {
	id := func(p string) string { return strings.NewReplacer("/", "_", ".", "_").Replace(p) }
	pkgs := make([]string, 0, len(graph))
	for p := range graph {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	var b strings.Builder
	b.WriteString("```mermaid\nflowchart LR\n")
	for _, p := range pkgs {
		fmt.Fprintf(&b, "  %s[\"%s\"]\n", id(p), p)
	}
	for _, p := range pkgs {
		for _, d := range graph[p] {
			fmt.Fprintf(&b, "  %s --> %s\n", id(p), id(d))
		}
	}
	b.WriteString("```\n")
	return b.String()
}

func TestDiagramMatchesImports(t *testing.T) {
	doc, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	i, j := bytes.Index(doc, []byte(begin)), bytes.Index(doc, []byte(end))
	if i < 0 || j < i {
		t.Fatalf("%s: no %q … %q block", docPath, begin, end)
	}
	want := diagram(imports(t))
	got := string(doc[i+len(begin)+1 : j])
	if got == want {
		return
	}
	if golden.Update() { // rewrite the diagram in docs/architecture.md
		out := append(append(append([]byte{}, doc[:i+len(begin)+1]...), want...), doc[j:]...)
		if err := os.WriteFile(docPath, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the import diagram is out of date (go test ./internal/archdoc -update rewrites it); want:\n%s", docPath, want)
}

// TestEveryPackageDescribed: each package in the diagram has its
// paragraph, a heading "### `path`".
func TestEveryPackageDescribed(t *testing.T) {
	doc, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	for p := range imports(t) {
		if !bytes.Contains(doc, []byte("### `"+p+"`")) {
			t.Errorf("%s: package %s has no section (### `%s`)", docPath, p, p)
		}
	}
}

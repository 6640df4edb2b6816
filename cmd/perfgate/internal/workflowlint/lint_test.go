package workflowlint

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
	"gopkg.in/yaml.v3"
)

// The action's inputs and outputs are a contract (issue 4, docs/action.md).
var (
	wantInputs = []string{"github-token", "database-url", "store-dir", "config", "results-file", "filter", "threshold", "alpha", "inconclusive",
		"baseline-branch", "fail-on-regression", "comment", "record", "allow-forks", "baseline", "mode", "rounds", "confirm", "github-timeout", "database-timeout", "cuda", "cuda-include", "pre-run-checks",
		"notify-changes", "dashboard-url", "shards", "shard", "skip-unchanged-kernels"}
	wantOutputs = []string{"verdict", "regressions", "improvements", "report", "run-id"}
)

func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for !exists(filepath.Join(dir, "go.mod")) {
		if dir == filepath.Dir(dir) {
			t.Fatal("go.mod not found above the test's directory")
		}
		dir = filepath.Dir(dir)
	}
	return dir
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// lint runs actionlint on files of the project at root and returns the
// errors it prints.
func lint(t *testing.T, root string, files ...string) string {
	t.Helper()
	var out bytes.Buffer
	opts := &actionlint.LinterOptions{}
	if sc, err := exec.LookPath("shellcheck"); err == nil {
		opts.Shellcheck = sc // run: scripts are checked where shellcheck is installed (GitHub's ubuntu images)
	}
	l, err := actionlint.NewLinter(&out, opts)
	if err != nil {
		t.Fatal(err)
	}
	proj, err := actionlint.NewProject(root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.LintFiles(files, proj); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestWorkflows(t *testing.T) {
	root := repoRoot(t)
	var files []string
	for _, glob := range []string{".github/workflows/*.yml", ".github/workflows/*.yaml", "examples/workflows/*.yml"} {
		m, _ := filepath.Glob(filepath.Join(root, glob))
		files = append(files, m...)
	}
	for _, must := range []string{".github/workflows/ci.yml", "examples/workflows/perfgate.yml"} {
		if !slices.Contains(files, filepath.Join(root, must)) {
			t.Errorf("%s is missing", must)
		}
	}
	if out := lint(t, root, files...); out != "" {
		t.Errorf("actionlint:\n%s", out)
	}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for i, line := range strings.Split(string(b), "\n") {
			code, _, _ := strings.Cut(line, "#")
			if strings.Contains(code, "pull_request_target") {
				t.Errorf("%s:%d: pull_request_target hands secrets to pull-request code", f, i+1)
			}
		}
	}
}

type actionMeta struct {
	Inputs  yaml.Node `yaml:"inputs"`
	Outputs yaml.Node `yaml:"outputs"`
	Runs    struct {
		Using string      `yaml:"using"`
		Steps []yaml.Node `yaml:"steps"`
	} `yaml:"runs"`
}

func keys(n yaml.Node) []string {
	var out []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, n.Content[i].Value)
	}
	return out
}

func readAction(t *testing.T, root string) actionMeta {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var m actionMeta
	if err := yaml.Unmarshal(b, &m); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return m
}

func TestActionContract(t *testing.T) {
	m := readAction(t, repoRoot(t))
	if got := keys(m.Inputs); !slices.Equal(got, wantInputs) {
		t.Errorf("inputs = %q\nwant     %q", got, wantInputs)
	}
	if got := keys(m.Outputs); !slices.Equal(got, wantOutputs) {
		t.Errorf("outputs = %q\nwant      %q", got, wantOutputs)
	}
	if m.Runs.Using != "composite" {
		t.Errorf("runs.using = %q, want composite", m.Runs.Using)
	}
}

// TestActionSteps lints the composite steps as the steps of a reusable
// workflow whose inputs are the action's, so actionlint checks their
// expressions, the actions they use and their shell scripts. It also checks
// that every input reaches perfgate as INPUT_<NAME>.
func TestActionSteps(t *testing.T) {
	root := repoRoot(t)
	m := readAction(t, root)
	inputs := map[string]any{}
	for _, in := range wantInputs {
		inputs[in] = map[string]any{"type": "string", "required": false}
	}
	wf := map[string]any{
		"on":   map[string]any{"workflow_call": map[string]any{"inputs": inputs}},
		"jobs": map[string]any{"action": map[string]any{"runs-on": "ubuntu-latest", "steps": m.Runs.Steps}},
	}
	b, err := yaml.Marshal(wf)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, ".github", "workflows", "action-steps.yml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if out := lint(t, dir, path); out != "" {
		t.Errorf("actionlint on action.yml's steps:\n%s\n%s", out, b)
	}
	src, _ := os.ReadFile(filepath.Join(root, "action.yml"))
	for _, in := range wantInputs {
		if in == "cuda" || in == "cuda-include" {
			continue // used by the build step
		}
		env := "INPUT_" + strings.ToUpper(in) + ": ${{ inputs." + in + " }}"
		if !bytes.Contains(src, []byte(env)) {
			t.Errorf("action.yml does not pass %s", env)
		}
	}
}

// TestActionUsedLocally lints a workflow that uses the action with every
// input (uses: ./), and one with a misspelt input, which must be caught.
func TestActionUsedLocally(t *testing.T) {
	root := repoRoot(t)
	src, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var with strings.Builder
	for _, in := range wantInputs {
		with.WriteString("          " + in + ": x\n")
	}
	tests := []struct {
		name, with string
		wantErr    string
	}{
		{"every input", with.String(), ""},
		{"misspelt input", "          treshold: x\n", `input "treshold" is not defined`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "action.yml"), src, 0o644); err != nil {
				t.Fatal(err)
			}
			wf := filepath.Join(dir, ".github", "workflows", "use.yml")
			if err := os.MkdirAll(filepath.Dir(wf), 0o755); err != nil {
				t.Fatal(err)
			}
			body := "on: pull_request\njobs:\n  gate:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: ./\n        with:\n" + tt.with
			if err := os.WriteFile(wf, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			out := lint(t, dir, wf)
			switch {
			case tt.wantErr == "" && out != "":
				t.Errorf("actionlint:\n%s", out)
			case tt.wantErr != "" && !strings.Contains(out, tt.wantErr):
				t.Errorf("actionlint did not report %q:\n%s", tt.wantErr, out)
			}
		})
	}
}

// TestExampleWorkflowStandalone lints examples/workflows/perfgate.yml as a
// user's repository holds it: alone, without this repository's
// .github/actionlint.yaml (its runner labels must need no configuration).
func TestExampleWorkflowStandalone(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "workflows", "perfgate.yml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	wf := filepath.Join(dir, ".github", "workflows", "perfgate.yml")
	if err := os.MkdirAll(filepath.Dir(wf), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(wf, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if out := lint(t, dir, wf); out != "" {
		t.Errorf("actionlint on the example workflow alone:\n%s", out)
	}
}

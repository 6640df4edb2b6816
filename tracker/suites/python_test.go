package suites

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

// stubPython is an interpreter that answers perfgate's call of the harness
// (-m perfgate_harness run SPEC OUT) as $STUB says, recording its arguments,
// working directory and PYTHONPATH in SPEC.seen.
const stubPython = `#!/bin/sh
printf '%s\n' "$*" "$(pwd)" "$PYTHONPATH" > "$4.seen"
case "$STUB" in
refuse) echo "perfgate_harness: spec.json: the spec has no cases" >&2; exit 2 ;;
crash) echo "Traceback (most recent call last): ModuleNotFoundError: No module named 'triton'" >&2; exit 1 ;;
hang) sleep 10 ;;
esac
suite=${STUB_SUITE:-py}
cat > "$5" <<JSON
{"schema": "perfgate.results/v1",
 "run": {"id": "r1", "repo": "local/local", "commit": "0000000000000000000000000000000000000000", "branch": "local",
         "event": "local", "testbed": "t", "started_at": "2026-11-27T12:00:00Z", "env": {"gpu": "NVIDIA H100 80GB HBM3"}},
 "benchmarks": [{"suite": "$suite", "name": "add/n=8/mode=cold", "unit": "us", "better": "lower", "samples": [1.5, 1.25]}]}
JSON
`

func stubRun(t *testing.T, env ...string) (Python, []model.Benchmark, map[string]string, error) {
	t.Helper()
	dir := t.TempDir()
	py := filepath.Join(dir, "python3")
	if err := os.WriteFile(py, []byte(stubPython), 0o755); err != nil {
		t.Fatal(err)
	}
	p := Python{Suite: "py", Origin: ".perfgate.yml line 3: suite py", Interpreter: py, HarnessDir: "/opt/harness",
		Dir: dir, Spec: filepath.Join(dir, "spec.json"), Out: filepath.Join(dir, "out.json"), Env: env, Timeout: 2 * time.Second}
	bs, runEnv, err := RunPython(context.Background(), p, Options{Env: []string{"PYTHONPATH=/ignored", "HOME=/h"}})
	return p, bs, runEnv, err
}

func TestRunPython(t *testing.T) {
	p, bs, env, err := stubRun(t, "PYTHONPATH=/site") // the suite's env: wins over perfgate's
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != 1 || bs[0].Name != "add/n=8/mode=cold" || env["gpu"] != "NVIDIA H100 80GB HBM3" {
		t.Fatalf("benchmarks %+v env %v", bs, env)
	}
	seen, err := os.ReadFile(p.Spec + ".seen")
	if err != nil {
		t.Fatal(err)
	}
	want := "-m perfgate_harness run " + p.Spec + " " + p.Out + "\n" + p.Dir + "\n/opt/harness:/site\n"
	if string(seen) != want {
		t.Errorf("the harness ran as\n%s\nwant\n%s", seen, want)
	}
}

func TestRunPythonFailures(t *testing.T) {
	for _, tt := range []struct {
		name, stub string
		input      bool // an input error (exit 2), else a *RunError
		want       string
	}{
		{"refused spec", "refuse", true, ".perfgate.yml line 3: suite py: the Python harness refused the suite: perfgate_harness: spec.json: the spec has no cases"},
		{"crash", "crash", false, "No module named 'triton'"},
		{"timeout", "hang", false, "timed out after 2s"},
		{"another suite's benchmark", "other", true, `the Python harness wrote benchmark "add/n=8/mode=cold" of suite "other", not "py"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			env := []string{"STUB=" + tt.stub}
			if tt.stub == "other" {
				env = append(env, "STUB_SUITE=other")
			}
			_, _, _, err := stubRun(t, env...)
			var re *RunError
			if err == nil || model.IsInputError(err) != tt.input || (!tt.input && !errors.As(err, &re)) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v (input error %v); want %q, input error %v", err, model.IsInputError(err), tt.want, tt.input)
			}
		})
	}
}

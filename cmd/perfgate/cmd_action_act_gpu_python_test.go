package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// actPythonConfig is the python suite of the GPU leg's Python variant: the
// Triton add of examples/python against torch.add, at one size.
const actPythonConfig = `suites:
  - name: triton
    python:
      module: add_triton.py
      function: triton_add
      reference: {function: torch_add}
      sweep:
        n: [16777216]
      dtypes: [fp32]
      bytes: 3 * n * elem_bytes
`

// TestActionUnderActGPUPython is TestActionUnderActGPU for a repository
// whose kernel is Triton code (issue 31): the example workflow under act on
// a GPU host, a python: suite timed by perfgate's Python harness (python3
// with torch and Triton on the host's PATH). Two pushes record main's
// history; a pull request whose add_triton.py launches its kernel twice per
// call (what SLOW_TRITON_ADD=1 does in examples/python) must fail with a
// comment naming triton_add, and torch_add, the unchanged reference, must not
// be called a regression.
func TestActionUnderActGPUPython(t *testing.T) {
	if os.Getenv("PERFGATE_ACT_GPU") != "1" {
		t.Skip("the GPU leg of the act test: set PERFGATE_ACT_GPU=1 on a GPU host")
	}
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "python", "add_triton.py"))
	if err != nil {
		t.Fatal(err)
	}
	const knob = `os.environ.get("SLOW_TRITON_ADD") == "1"`
	if !strings.Contains(string(src), knob) {
		t.Fatalf("examples/python/add_triton.py no longer reads its knob as %s", knob)
	}
	slow := strings.Replace(string(src), knob, "True", 1)
	act := actBinary(t)
	r := newActRunner(t, act, map[string]string{".perfgate.yml": actPythonConfig})
	vars := []string{"--var", "PERFGATE_CUDA_INCLUDE=" + os.Getenv("PERFGATE_CUDA_INCLUDE")}
	for i := range 2 {
		sha := r.commitFiles(t, "main", map[string]string{"add_triton.py": string(src), "round.txt": time.Now().String()})
		res := r.push(t, sha, vars...)
		t.Logf("push %d: job %s, verdict %s, %v", i, res.jobResult, res.outputs["verdict"], res.wall)
		if res.code != 0 || res.jobResult != "success" || !strings.Contains(res.log, "recorded run") {
			t.Fatalf("push %d: exit %d, job %s\n%s", i, res.code, res.jobResult, res.log)
		}
	}
	r.git(t, "checkout", "-q", "-b", "slower")
	sha := r.commitFiles(t, "a slower triton add", map[string]string{"add_triton.py": slow})
	res := r.run(t, "pull_request", r.prEvent(t, "pull_request.opened.json", sha), vars...)
	t.Logf("pull request: job %s, verdict %s, regressions %s, %v", res.jobResult, res.outputs["verdict"], res.outputs["regressions"], res.wall)
	if res.code == 0 || res.jobResult != "failure" || res.outputs["verdict"] != "fail" {
		t.Fatalf("exit %d, job %s, outputs %v; want a failed job and verdict fail\n%s", res.code, res.jobResult, res.outputs, res.log)
	}
	cs := r.fake.Comments("Codertocat", "Hello-World", e2ePR)
	if len(cs) != 1 || !strings.Contains(cs[0].Body, "triton_add") || !strings.Contains(cs[0].Body, "regression") {
		t.Fatalf("comments = %+v, want one naming the triton_add regression", cs)
	}
	if out := os.Getenv("PERFGATE_ACT_GPU_OUT"); out != "" {
		os.WriteFile(filepath.Join(out, "act-gpu-python-comment.md"), []byte(cs[0].Body), 0o644)
	}
	for _, line := range strings.Split(cs[0].Body, "\n") {
		if strings.Contains(line, "torch_add/") && strings.Contains(line, "**") && strings.Contains(line, " → ") {
			t.Errorf("the unchanged reference is in the table of regressions: %s", line)
		}
	}
}

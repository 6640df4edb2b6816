package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The GPU leg of the act test (docs/action.md, "Under a real runner engine"):
// the example workflow under act on a GPU host, the composite action building
// perfgate with CUDA from its inputs (cuda-include from the
// PERFGATE_CUDA_INCLUDE repository variable), a built-in suite and a kernel
// suite on the GPU. Two pushes record main's history; a pull request whose
// kernel was deliberately slowed must fail with a comment naming it.
//
// It runs only with PERFGATE_ACT_GPU=1 (CI has no GPU). PERFGATE_CUDA_INCLUDE
// is passed on as the variable; with PERFGATE_ACT_GPU_OUT set, the comment,
// the status and the timings are written there.

// actSaxpy is the kernel of the GPU leg; slow adds reads of x that the result
// does not depend on (0 × a finite sum), tripling the memory traffic.
func actSaxpy(slow bool) string {
	src := `extern "C" __global__ void saxpy(const float* __restrict__ x, float* __restrict__ y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float extra = 0.0f;
        for (int r = 1; r <= SLOW; r++) {
            extra += x[(i + r * 1048576) % n]; // deliberately slow: extra reads
        }
        y[i] = a * x[i] + y[i] + 0.0f * extra;
    }
}

extern "C" __global__ void saxpy_ref(const float* __restrict__ x, float* __restrict__ y, float a, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        y[i] = a * x[i] + y[i];
    }
}
`
	if slow {
		return "#define SLOW 4\n" + src
	}
	return "#define SLOW 0\n" + src
}

const actGPUConfig = `suites:
  - name: memory
    builtin: {suite: memory, size: ci}
  - name: saxpy
    kernel:
      source: saxpy.cu
      entry: saxpy
      sweep:
        n: [16777216]
      buffers:
        - {name: x, dtype: fp32, len: n, init: random}
        - {name: y, dtype: fp32, len: n, init: random, output: true}
      args: [x, y, {value: 2, dtype: fp32}, {value: n, dtype: i32}]
      grid: cdiv(n, 256)
      block: 256
      bytes: 12 * n
      reference:
        entry: saxpy_ref
`

func TestActionUnderActGPU(t *testing.T) {
	if os.Getenv("PERFGATE_ACT_GPU") != "1" {
		t.Skip("the GPU leg of the act test: set PERFGATE_ACT_GPU=1 on a GPU host")
	}
	act := actBinary(t)
	r := newActRunner(t, act, map[string]string{".perfgate.yml": actGPUConfig})
	vars := []string{"--var", "PERFGATE_CUDA_INCLUDE=" + os.Getenv("PERFGATE_CUDA_INCLUDE")}
	type leg struct {
		Event, Job, Verdict string
		Regressions         string
		BuildS, RunS, WallS float64
		BuiltWithCUDA       bool
		Log                 string
	}
	var legs []leg
	note := func(event string, res actResult) {
		legs = append(legs, leg{Event: event, Job: res.jobResult, Verdict: res.outputs["verdict"], Regressions: res.outputs["regressions"],
			BuildS: res.times["perfgate/build"].Seconds(), RunS: res.times["perfgate/perfgate"].Seconds(), WallS: res.wall.Seconds(),
			BuiltWithCUDA: strings.Contains(res.log, "perfgate: building with CUDA"), Log: res.log})
	}
	defer func() {
		out := os.Getenv("PERFGATE_ACT_GPU_OUT")
		if out == "" {
			return
		}
		cs := r.fake.Comments("Codertocat", "Hello-World", e2ePR)
		var body string
		if len(cs) > 0 {
			body = cs[len(cs)-1].Body
		}
		b, _ := json.MarshalIndent(map[string]any{"legs": legs, "comments": len(cs), "requests": len(r.fake.Requests())}, "", "  ")
		os.WriteFile(filepath.Join(out, "act-gpu.json"), b, 0o644)
		os.WriteFile(filepath.Join(out, "act-gpu-comment.md"), []byte(body), 0o644)
	}()

	for i := range 2 {
		sha := r.commitFiles(t, "main", map[string]string{"saxpy.cu": actSaxpy(false), "round.txt": time.Now().String()})
		res := r.push(t, sha, vars...)
		note("push", res)
		if res.code != 0 || res.jobResult != "success" || !strings.Contains(res.log, "recorded run") {
			t.Fatalf("push %d: exit %d, job %s\n%s", i, res.code, res.jobResult, res.log)
		}
		if !strings.Contains(res.log, "perfgate: building with CUDA") {
			t.Fatalf("push %d: perfgate was not built with CUDA\n%s", i, res.log)
		}
	}
	r.git(t, "checkout", "-q", "-b", "slower")
	sha := r.commitFiles(t, "a slower saxpy", map[string]string{"saxpy.cu": actSaxpy(true)})
	res := r.run(t, "pull_request", r.prEvent(t, "pull_request.opened.json", sha), vars...)
	note("pull_request", res)
	if res.code == 0 || res.jobResult != "failure" || res.outputs["verdict"] != "fail" {
		t.Fatalf("exit %d, job %s, outputs %v; want a failed job and verdict fail\n%s", res.code, res.jobResult, res.outputs, res.log)
	}
	cs := r.fake.Comments("Codertocat", "Hello-World", e2ePR)
	if len(cs) != 1 || !strings.Contains(cs[0].Body, "saxpy") || !strings.Contains(cs[0].Body, "regression") {
		t.Errorf("comments = %+v, want one naming the saxpy regression", cs)
	}
	sts := r.fake.Statuses("Codertocat", "Hello-World", sha)
	if len(sts) != 1 || sts[0].State != "failure" {
		t.Errorf("statuses = %+v, want one failure", sts)
	} else {
		t.Logf("status: %s %q", sts[0].State, *sts[0].Description)
	}
	if strings.Contains(res.log, "regression    memory/") || strings.Contains(res.log, "regression   memory/") {
		t.Logf("note: a memory benchmark was also judged a regression:\n%s", res.log)
	}
}

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestActionBuildCache runs action/build.sh as three jobs on one runner
// (one tool cache): the second reuses the first's binary without building;
// a change to the action's source, or another cuda.h, builds again.
func TestActionBuildCache(t *testing.T) {
	script, dir, write := buildScriptFixture(t)
	gpuBin, _, tools := buildScriptTools(t, dir, write)
	src := filepath.Join(dir, "src")
	write(filepath.Join(src, "cmd", "perfgate", "main.go"), "package main\n", 0o644)
	write(filepath.Join(src, "go.mod"), "module x\n", 0o644)
	cuda := filepath.Join(dir, "cuda", "include")
	write(filepath.Join(cuda, "cuda.h"), "#define CUDA_VERSION 13000\n", 0o644)
	write(filepath.Join(dir, "cuda", "lib64", "libnvrtc.so.13"), "", 0o644)
	write(filepath.Join(dir, "cuda", "lib64", "stubs", "libcuda.so"), "", 0o644)
	cache := filepath.Join(dir, "toolcache")
	job := func(name string) (built bool, log string) {
		t.Helper()
		stubOut, tmp := filepath.Join(dir, "stub.out"), filepath.Join(dir, "runner-temp-"+name)
		os.Remove(stubOut)
		cmd := exec.Command("bash", script)
		cmd.Env = []string{"PATH=" + gpuBin + ":" + tools, "PERFGATE_CUDA=auto", "PERFGATE_CUDA_INCLUDE=" + cuda,
			"GITHUB_ACTION_PATH=" + src, "RUNNER_TEMP=" + tmp, "GITHUB_OUTPUT=" + filepath.Join(dir, "gh-out"),
			"STUB_OUT=" + stubOut, "PERFGATE_BUILD_SYSLIBS=", "PERFGATE_BUILD_TOOLKIT=", "HOME=" + dir, "RUNNER_TOOL_CACHE=" + cache}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		bin, err := os.ReadFile(filepath.Join(tmp, "perfgate-action", "perfgate"))
		if err != nil || !strings.HasPrefix(string(bin), "binary built 1|") {
			t.Fatalf("%s: the job's binary is %q (%v)", name, bin, err)
		}
		_, err = os.Stat(stubOut)
		return err == nil, string(out)
	}
	if built, log := job("first"); !built || !strings.Contains(log, "cached the build at "+filepath.Join(cache, "perfgate-build")) {
		t.Fatalf("first job: built %v\n%s", built, log)
	}
	if built, log := job("second"); built || !strings.Contains(log, "reusing the build cached at") {
		t.Fatalf("second job on the same runner built again (or did not say it reused):\n%s", log)
	}
	write(filepath.Join(src, "cmd", "perfgate", "main.go"), "package main // changed\n", 0o644)
	if built, _ := job("source changed"); !built {
		t.Errorf("a changed source reused the old build")
	}
	write(filepath.Join(cuda, "cuda.h"), "#define CUDA_VERSION 13010\n", 0o644)
	if built, _ := job("cuda.h changed"); !built {
		t.Errorf("another cuda.h reused the old build")
	}
	if built, _ := job("again"); built {
		t.Errorf("the same inputs built again")
	}
}

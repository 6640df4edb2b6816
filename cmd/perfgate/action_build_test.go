package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestActionBuildScript runs action/build.sh, the action's build step, with
// stub go and nvidia-smi commands and fake CUDA include folders, and checks
// the cgo flags and tags it builds with.
func TestActionBuildScript(t *testing.T) {
	script, dir, write := buildScriptFixture(t)
	// cuda12: only a 12.8 cuda.h (the copy bundled with Triton on a CUDA 13
	// host); cuda13: a toolkit with a 13.0 cuda.h, nvrtc.h and lib64;
	// full12: a whole 12.x toolkit.
	cuda12, cuda13, full12 := filepath.Join(dir, "cuda12", "include"), filepath.Join(dir, "cuda13", "include"), filepath.Join(dir, "full12", "include")
	write(filepath.Join(cuda12, "cuda.h"), "#define CUDA_VERSION 12080\n", 0o644)
	write(filepath.Join(cuda13, "cuda.h"), "#define CUDA_VERSION 13000\n", 0o644)
	write(filepath.Join(cuda13, "nvrtc.h"), "/* nvrtc 13 */\n", 0o644)
	write(filepath.Join(dir, "cuda13", "lib64", "libnvrtc.so"), "", 0o644)
	write(filepath.Join(full12, "cuda.h"), "#define CUDA_VERSION 12040\n", 0o644)
	write(filepath.Join(full12, "nvrtc.h"), "/* nvrtc 12 */\n", 0o644)
	write(filepath.Join(dir, "full12", "lib64", "libnvrtc.so"), "", 0o644)
	write(filepath.Join(dir, "full12", "lib64", "stubs", "libcuda.so"), "", 0o644)
	spaced := filepath.Join(dir, "cuda 12", "include")
	write(filepath.Join(spaced, "cuda.h"), "#define CUDA_VERSION 12080\n", 0o644)
	write(filepath.Join(spaced, "nvrtc.h"), "/* nvrtc 12 */\n", 0o644)
	gpuBin, plainBin := filepath.Join(dir, "gpu-bin"), filepath.Join(dir, "plain-bin")
	goStub := "#!/bin/sh\nprintf '%s|%s|%s|%s\\n' \"$CGO_ENABLED\" \"$CGO_CFLAGS\" \"$CGO_LDFLAGS\" \"$*\" > \"$STUB_OUT\"\n"
	for _, b := range []string{gpuBin, plainBin} {
		write(filepath.Join(b, "go"), goStub, 0o755)
	}
	write(filepath.Join(gpuBin, "nvidia-smi"), "#!/bin/sh\nexit 0\n", 0o755)
	// The tools the script uses, and nothing else of the host's (which may
	// have an nvidia-smi).
	tools := filepath.Join(dir, "tools")
	if err := os.MkdirAll(tools, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"sh", "bash", "sed", "head", "sort", "tr", "dirname", "mkdir", "ln", "awk", "grep", "paste", "cat"} {
		p, err := exec.LookPath(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := os.Symlink(p, filepath.Join(tools, name)); err != nil {
			t.Fatal(err)
		}
	}

	tmp := filepath.Join(dir, "runner-temp")
	priv := filepath.Join(tmp, "perfgate-action", "include")
	tests := []struct {
		name, cuda, include, bin string
		code                     int
		want                     string // the stub go's CGO_ENABLED|CGO_CFLAGS|CGO_LDFLAGS|args
		libdir, log              string
	}{
		{"CUDA 13 host: 12.x cuda.h and nvrtc.h from two folders", "true", cuda12 + "," + cuda13, gpuBin, 0,
			"1|-I" + cuda12 + " -I" + priv + "|-L" + filepath.Join(dir, "cuda13", "lib64") + "|build -tags cuda -trimpath -o " + filepath.Join(tmp, "perfgate-action", "perfgate") + " ./cmd/perfgate",
			filepath.Join(dir, "cuda13", "lib64"), "cuda.h from " + cuda12 + ", nvrtc.h from " + cuda13},
		{"newline-separated, order does not matter for the version check", "auto", " " + cuda13 + "\n" + cuda12 + "\n", gpuBin, 0,
			"1|-I" + cuda12 + " -I" + priv + "|-L" + filepath.Join(dir, "cuda13", "lib64") + "|build -tags cuda",
			filepath.Join(dir, "cuda13", "lib64"), "skipping " + cuda13 + "/cuda.h (CUDA_VERSION 13000, need 12.x)"},
		{"one 12.x toolkit: no private folder", "true", full12, gpuBin, 0,
			"1|-I" + full12 + "|-L" + filepath.Join(dir, "full12", "lib64") + " -L" + filepath.Join(dir, "full12", "lib64", "stubs") + "|build -tags cuda",
			filepath.Join(dir, "full12", "lib64"), "nvrtc.h from " + full12},
		{"cuda false", "false", full12, gpuBin, 0, "||| build -trimpath", "", ""},
		{"no nvidia-smi, auto: a notice", "auto", full12, plainBin, 0, "||| build -trimpath", "", "::notice title=perfgate::building without CUDA (no nvidia-smi)"},
		{"no nvidia-smi, true: an error", "true", full12, plainBin, 1, "", "", "::error title=perfgate::cuda: true, but no nvidia-smi"},
		{"a folder that does not exist", "auto", filepath.Join(dir, "nope"), gpuBin, 2, "", "", "cuda-include: " + filepath.Join(dir, "nope") + " is not a folder"},
		// Issue 28, item 14: it passed the check, and cgo split -I at the space.
		{"a folder with a space", "true", spaced, gpuBin, 2, "", "", "cuda-include: " + spaced + " has white space in its path"},
		{"a bad cuda value", "yes", "", gpuBin, 2, "", "", "cuda: 'yes' is not auto, true or false"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stubOut, ghOut := filepath.Join(dir, "stub.out"), filepath.Join(dir, "github-output")
			os.Remove(stubOut)
			os.Remove(ghOut)
			cmd := exec.Command("bash", script)
			cmd.Env = []string{"PATH=" + tt.bin + ":" + tools, "PERFGATE_CUDA=" + tt.cuda, "PERFGATE_CUDA_INCLUDE=" + tt.include,
				"GITHUB_ACTION_PATH=" + dir, "RUNNER_TEMP=" + tmp, "GITHUB_OUTPUT=" + ghOut, "STUB_OUT=" + stubOut}
			out, err := cmd.CombinedOutput()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tt.code || !strings.Contains(string(out), tt.log) {
				t.Fatalf("exit %d, want %d with %q:\n%s", code, tt.code, tt.log, out)
			}
			if tt.code != 0 {
				return
			}
			got, _ := os.ReadFile(stubOut)
			if !strings.HasPrefix(string(got), strings.Replace(tt.want, "||| ", "|||", 1)) {
				t.Errorf("go ran as\n%s\nwant it to start\n%s", got, tt.want)
			}
			gh, _ := os.ReadFile(ghOut)
			if !strings.Contains(string(gh), "\nlibdir="+tt.libdir+"\n") {
				t.Errorf("GITHUB_OUTPUT:\n%s\nwant libdir=%s", gh, tt.libdir)
			}
			if strings.Contains(tt.want, priv) {
				if target, err := os.Readlink(filepath.Join(priv, "nvrtc.h")); err != nil || target != filepath.Join(cuda13, "nvrtc.h") {
					t.Errorf("private nvrtc.h links to %q (%v)", target, err)
				}
			}
		})
	}
}

// buildScriptFixture is the set-up of the tests that run action/build.sh:
// the script's absolute path, a scratch folder, and a function that writes
// a file (making its folders) with the given mode. It skips without bash.
func buildScriptFixture(t *testing.T) (script, dir string, write func(path, body string, mode os.FileMode)) {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	script, err := filepath.Abs(filepath.Join("..", "..", "action", "build.sh"))
	if err != nil {
		t.Fatal(err)
	}
	write = func(path, body string, mode os.FileMode) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
	}
	return script, t.TempDir(), write
}

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestActionBuildScript runs action/build.sh, the action's build step, with
// stub go and nvidia-smi commands and fake CUDA toolkits, and checks the cgo
// flags and tags it builds with, and that a GPU runner that cannot build
// with CUDA fails (exit 3, with the fix) when the job has GPU suites.
func TestActionBuildScript(t *testing.T) {
	script, dir, write := buildScriptFixture(t)
	// triton: only a 12.8 cuda.h (the copy bundled with Triton); cuda13: a
	// CUDA 13 toolkit (cuda.h 13.0, libnvrtc.so.13, the libcuda stub);
	// full12: a CUDA 12 toolkit; nonvrtc: a 13.0 cuda.h and libcuda but no
	// NVRTC anywhere; old: a CUDA 11.4 cuda.h, too old.
	triton := filepath.Join(dir, "triton", "include")
	cuda13, full12 := filepath.Join(dir, "cuda13", "include"), filepath.Join(dir, "full12", "include")
	nonvrtc, old := filepath.Join(dir, "nonvrtc", "include"), filepath.Join(dir, "old", "include")
	write(filepath.Join(triton, "cuda.h"), "#define CUDA_VERSION 12080\n", 0o644)
	write(filepath.Join(cuda13, "cuda.h"), "#define CUDA_VERSION 13000\n", 0o644)
	write(filepath.Join(cuda13, "nvml.h"), "/* must not reach the include path */\n", 0o644)
	write(filepath.Join(dir, "cuda13", "lib64", "libnvrtc.so.13"), "", 0o644)
	write(filepath.Join(dir, "cuda13", "lib64", "stubs", "libcuda.so"), "", 0o644)
	write(filepath.Join(full12, "cuda.h"), "#define CUDA_VERSION 12040\n", 0o644)
	write(filepath.Join(dir, "full12", "lib64", "libnvrtc.so.12"), "", 0o644)
	write(filepath.Join(dir, "full12", "lib64", "stubs", "libcuda.so"), "", 0o644)
	write(filepath.Join(nonvrtc, "cuda.h"), "#define CUDA_VERSION 13000\n", 0o644)
	write(filepath.Join(dir, "nonvrtc", "lib64", "stubs", "libcuda.so"), "", 0o644)
	write(filepath.Join(old, "cuda.h"), "#define CUDA_VERSION 11040\n", 0o644)
	spaced := filepath.Join(dir, "cuda 12", "include")
	write(filepath.Join(spaced, "cuda.h"), "#define CUDA_VERSION 12080\n", 0o644)
	// Workspaces: none has no config (the default GPU suites); cmdonly
	// declares command suites alone; kernel declares a kernel suite.
	none, cmdonly, kernel := filepath.Join(dir, "ws-none"), filepath.Join(dir, "ws-cmd"), filepath.Join(dir, "ws-kernel")
	write(filepath.Join(none, "README"), "", 0o644)
	write(filepath.Join(cmdonly, ".perfgate.yml"), "version: 1\nsuites:\n  - name: b\n    command:\n      run: go test -bench .\n", 0o644)
	write(filepath.Join(kernel, "perf.yml"), "version: 1\nsuites:\n  - name: k\n    kernel:\n      source: k.cu\n", 0o644)
	gpuBin, plainBin, tools := buildScriptTools(t, dir, write)

	tmp := filepath.Join(dir, "runner-temp")
	priv := filepath.Join(tmp, "perfgate-action", "include")
	build := "|build -tags cuda -trimpath -o " + filepath.Join(tmp, "perfgate-action", "perfgate") + " ./cmd/perfgate"
	tests := []struct {
		name, cuda, include, bin string
		env                      []string
		code                     int
		want                     string // the stub go's CGO_ENABLED|CGO_CFLAGS|CGO_LDFLAGS|args
		libdir, log, cudaH       string // cudaH: the private cuda.h's target
	}{
		{"CUDA 13 toolkit, nothing else", "auto", cuda13, gpuBin, nil, 0,
			"1|-I" + priv + "|-L" + filepath.Join(dir, "cuda13", "lib64", "stubs") + build,
			filepath.Join(dir, "cuda13", "lib64"), "cuda.h 13.0 from " + cuda13, filepath.Join(cuda13, "cuda.h")},
		{"too old a cuda.h is skipped", "auto", " " + old + "\n" + full12 + "\n", gpuBin, nil, 0,
			"1|-I" + priv + "|-L" + filepath.Join(dir, "full12", "lib64", "stubs") + build,
			filepath.Join(dir, "full12", "lib64"), "skipping " + old + "/cuda.h (CUDA_VERSION 11040, need 11.8 to 13.x)", filepath.Join(full12, "cuda.h")},
		{"a 12.x toolkit", "true", full12, gpuBin, nil, 0,
			"1|-I" + priv + "|-L" + filepath.Join(dir, "full12", "lib64", "stubs") + build,
			filepath.Join(dir, "full12", "lib64"), "cuda.h 12.4 from " + full12, filepath.Join(full12, "cuda.h")},
		{"cuda false", "false", full12, gpuBin, nil, 0, "||| build -trimpath", "", "", ""},
		{"no nvidia-smi, auto: a notice", "auto", full12, plainBin, nil, 0, "||| build -trimpath", "", "::notice title=perfgate::building without CUDA (no nvidia-smi", ""},
		{"no nvidia-smi, true: exit 3", "true", full12, plainBin, nil, 3, "", "", "::error title=perfgate::cuda: true, but no nvidia-smi", ""},
		// Issue 26: a GPU runner whose CUDA cannot be built must not go on
		// with a binary that cannot measure.
		{"GPU host, default suites, no NVRTC: exit 3", "auto", nonvrtc, gpuBin, []string{"GITHUB_WORKSPACE=" + none}, 3, "", "",
			"this GPU runner cannot build perfgate with CUDA: no NVRTC library (libnvrtc.so.13, .12 or .11.2), which compiles the kernels at run time. The job's suites need the GPU (built-in or kernel suites; the default suites without a config). Fix: install the toolkit's NVRTC (e.g. apt-get install cuda-nvrtc-13-0", ""},
		{"GPU host, a kernel suite, no NVRTC: exit 3", "auto", nonvrtc, gpuBin,
			[]string{"GITHUB_WORKSPACE=" + kernel, "PERFGATE_ACTION_CONFIG=perf.yml"}, 3, "", "", "Fix: install the toolkit's NVRTC", ""},
		{"GPU host, command suites only, no NVRTC: CPU build", "auto", nonvrtc, gpuBin, []string{"GITHUB_WORKSPACE=" + cmdonly}, 0,
			"||| build -trimpath", "", "::notice title=perfgate::building without CUDA (no NVRTC library", ""},
		{"GPU host, results-file, no NVRTC: CPU build", "auto", nonvrtc, gpuBin,
			[]string{"GITHUB_WORKSPACE=" + none, "PERFGATE_ACTION_RESULTS_FILE=r.json"}, 0, "||| build -trimpath", "", "::notice", ""},
		{"a folder that does not exist", "auto", filepath.Join(dir, "nope"), gpuBin, nil, 2, "", "", "cuda-include: " + filepath.Join(dir, "nope") + " is not a folder", ""},
		// Issue 28, item 14: it passed the check, and cgo split -I at the space.
		{"a folder with a space", "true", spaced, gpuBin, nil, 2, "", "", "cuda-include: " + spaced + " has white space in its path", ""},
		{"a bad cuda value", "yes", "", gpuBin, nil, 2, "", "", "cuda: 'yes' is not auto, true or false", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stubOut, ghOut := filepath.Join(dir, "stub.out"), filepath.Join(dir, "github-output")
			os.Remove(stubOut)
			os.Remove(ghOut)
			os.RemoveAll(priv)
			cmd := exec.Command("bash", script)
			cmd.Env = append([]string{"PATH=" + tt.bin + ":" + tools, "PERFGATE_CUDA=" + tt.cuda, "PERFGATE_CUDA_INCLUDE=" + tt.include,
				"GITHUB_ACTION_PATH=" + dir, "RUNNER_TEMP=" + tmp, "GITHUB_OUTPUT=" + ghOut, "STUB_OUT=" + stubOut,
				"PERFGATE_BUILD_SYSLIBS=", "PERFGATE_BUILD_TOOLKIT=", "HOME=" + dir, "PERFGATE_BUILD_CACHE=" + t.TempDir()}, tt.env...)
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
			// The build's cache key hashes every source file by name: a
			// space in a path (the fixture's "cuda 12") must not split one.
			if strings.Contains(string(out), "No such file or directory") {
				t.Errorf("the script read a path it split:\n%s", out)
			}
			if tt.code != 0 {
				if _, err := os.Stat(stubOut); err == nil {
					t.Errorf("go build ran before the script failed")
				}
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
			if tt.cudaH != "" {
				if target, err := os.Readlink(filepath.Join(priv, "cuda.h")); err != nil || target != tt.cudaH {
					t.Errorf("private cuda.h links to %q (%v), want %s", target, err, tt.cudaH)
				}
				if entries, _ := os.ReadDir(priv); len(entries) != 1 {
					t.Errorf("the private include folder holds %d files, want cuda.h alone", len(entries))
				}
			}
		})
	}
}

// buildScriptTools writes the stub commands of the build.sh tests: a go
// that records its cgo flags and arguments in $STUB_OUT and writes a fake
// binary at -o, and an nvidia-smi; and links the tools the script uses, and
// nothing else of the host's (which may have an nvidia-smi), into a folder.
// It returns the folders to put first on PATH for a GPU host and a plain
// one, and the tools' folder.
func buildScriptTools(t *testing.T, dir string, write func(path, body string, mode os.FileMode)) (gpuBin, plainBin, tools string) {
	t.Helper()
	gpuBin, plainBin = filepath.Join(dir, "gpu-bin"), filepath.Join(dir, "plain-bin")
	goStub := `#!/bin/sh
if [ "$1" = version ]; then echo "go version go1.26.8 linux/amd64"; exit 0; fi
printf '%s|%s|%s|%s\n' "$CGO_ENABLED" "$CGO_CFLAGS" "$CGO_LDFLAGS" "$*" > "$STUB_OUT"
while [ $# -gt 0 ]; do if [ "$1" = -o ]; then echo "binary built $(cat "$STUB_OUT")" > "$2"; chmod +x "$2"; fi; shift; done
`
	for _, b := range []string{gpuBin, plainBin} {
		write(filepath.Join(b, "go"), goStub, 0o755)
	}
	write(filepath.Join(gpuBin, "nvidia-smi"), "#!/bin/sh\nexit 0\n", 0o755)
	tools = filepath.Join(dir, "tools")
	if err := os.MkdirAll(tools, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"sh", "bash", "sed", "head", "sort", "tr", "dirname", "mkdir", "ln", "awk", "grep", "paste", "cat",
		"find", "xargs", "sha256sum", "cut", "cp", "mv", "uname", "chmod"} {
		p, err := exec.LookPath(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := os.Symlink(p, filepath.Join(tools, name)); err != nil {
			t.Fatal(err)
		}
	}
	return gpuBin, plainBin, tools
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

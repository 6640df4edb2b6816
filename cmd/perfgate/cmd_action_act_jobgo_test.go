package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestActionUnderActJobGo runs the action under act on a job whose own Go
// (a wrapper reporting go1.22.5-job) is on PATH before it, with a command
// suite that records go version: the suite must get the job's Go, not the
// one setup-go puts on PATH for perfgate's build (issue 26).
func TestActionUnderActJobGo(t *testing.T) {
	if testing.Short() {
		t.Skip("runs act, which builds perfgate; skipped with -short")
	}
	act := actBinary(t)
	dir := t.TempDir()
	seen := filepath.Join(dir, "suite-go-version.txt")
	jobGo := filepath.Join(dir, "job-go", "bin")
	if err := os.MkdirAll(jobGo, 0o755); err != nil {
		t.Fatal(err)
	}
	//lint:ignore SA1019 a test wants the toolchain go test was built with, not the go first on PATH
	realGo := filepath.Join(runtime.GOROOT(), "bin", "go")
	wrapper := "#!/bin/sh\nif [ \"$1\" = version ]; then echo 'go version go1.22.5-job linux/amd64'; exit 0; fi\nexec " + realGo + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(jobGo, "go"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	r := newActRunner(t, act, map[string]string{".perfgate.yml": `suites:
  - name: kernels
    command: {run: "go version > ` + seen + ` && cat kernels.json", format: json-samples, unit: us, better: lower}
`})
	sha := r.commit(t, "main 0", 1, 1)
	res := r.push(t, sha, "--env", "PATH="+jobGo+string(os.PathListSeparator)+os.Getenv("PATH"))
	if res.code != 0 || res.jobResult != "success" {
		t.Fatalf("exit %d, job %s\n%s", res.code, res.jobResult, res.log)
	}
	got, err := os.ReadFile(seen)
	if err != nil || !strings.Contains(string(got), "go1.22.5-job") {
		t.Fatalf("the command suite's go version = %q (%v), want the job's go1.22.5-job\n%s", got, err, res.log)
	}
	if !strings.Contains(res.log, "the job's Go ("+filepath.Join(jobGo, "go")+") stays first on PATH") {
		t.Errorf("the log does not say the job's Go was kept:\n%s", res.log)
	}
}

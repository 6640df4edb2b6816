package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestActionJobGo plays the action's Go steps as the runner does: the job
// has its own Go (1.22 here), action/jobgo.sh notes it, setup-go puts
// go.mod's Go first on PATH and exports GOTOOLCHAIN and GOROOT, the build
// runs, and jobgo.sh restores. The steps after it (the run step and its
// command suites) must get the job's Go back.
func TestActionJobGo(t *testing.T) {
	script, dir, write := buildScriptFixture(t)
	script = filepath.Join(filepath.Dir(script), "jobgo.sh")
	userGo, setupGo := filepath.Join(dir, "user", "bin"), filepath.Join(dir, "hostedtoolcache", "go", "1.26.8", "x64", "bin")
	write(filepath.Join(userGo, "go"), "#!/bin/sh\necho go version go1.22.5 linux/amd64\n", 0o755)
	write(filepath.Join(setupGo, "go"), "#!/bin/sh\necho go version go1.26.8 linux/amd64\n", 0o755)
	sysPath := os.Getenv("PATH")

	step := func(env []string, args ...string) (files map[string]string, out string) {
		t.Helper()
		files = map[string]string{}
		for _, f := range []string{"GITHUB_OUTPUT", "GITHUB_PATH", "GITHUB_ENV"} {
			p := filepath.Join(dir, f)
			os.Remove(p)
			env = append(env, f+"="+p)
		}
		cmd := exec.Command("bash", append([]string{script}, args...)...)
		cmd.Env = env
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("jobgo.sh %v: %v\n%s", args, err, b)
		}
		for _, f := range []string{"GITHUB_OUTPUT", "GITHUB_PATH", "GITHUB_ENV"} {
			c, _ := os.ReadFile(filepath.Join(dir, f))
			files[f] = string(c)
		}
		return files, string(b)
	}
	// outputs parses KEY=VALUE lines.
	outputs := func(s string) map[string]string {
		m := map[string]string{}
		for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
			if k, v, ok := strings.Cut(l, "="); ok {
				m[k] = v
			}
		}
		return m
	}

	t.Run("the job has a Go", func(t *testing.T) {
		noted, _ := step([]string{"PATH=" + userGo + ":" + sysPath}, "note")
		o := outputs(noted["GITHUB_OUTPUT"])
		if o["go"] != filepath.Join(userGo, "go") || o["gotoolchain"] != "" {
			t.Fatalf("noted %q", noted["GITHUB_OUTPUT"])
		}
		// After setup-go: its folder first, its variables exported.
		after := []string{"PATH=" + setupGo + ":" + userGo + ":" + sysPath, "GOTOOLCHAIN=local", "GOROOT=" + filepath.Dir(setupGo),
			"PERFGATE_JOB_GO=" + o["go"], "PERFGATE_JOB_GOTOOLCHAIN=", "PERFGATE_JOB_GOROOT=", "PERFGATE_JOB_GOPATH="}
		restored, _ := step(after, "restore")
		// The runner prepends GITHUB_PATH lines and applies GITHUB_ENV for the next steps.
		path := strings.TrimSpace(restored["GITHUB_PATH"]) + ":" + setupGo + ":" + userGo + ":" + sysPath
		env := outputs(restored["GITHUB_ENV"])
		if v, ok := env["GOTOOLCHAIN"]; !ok || v != "" {
			t.Errorf("GOTOOLCHAIN not reset: GITHUB_ENV %q", restored["GITHUB_ENV"])
		}
		if v, ok := env["GOROOT"]; !ok || v != "" {
			t.Errorf("GOROOT not reset: GITHUB_ENV %q", restored["GITHUB_ENV"])
		}
		if _, ok := env["GOPATH"]; ok {
			t.Errorf("GOPATH written though setup-go left it: %q", restored["GITHUB_ENV"])
		}
		// What a command suite running go version sees.
		cmd := exec.Command("sh", "-c", "go version")
		cmd.Env = []string{"PATH=" + path}
		got, err := cmd.Output()
		if err != nil || !strings.Contains(string(got), "go1.22.5") {
			t.Errorf("a later step's go version = %q (%v), want the job's go1.22.5", got, err)
		}
	})
	t.Run("the job has no Go", func(t *testing.T) {
		bare := filepath.Join(dir, "bare")
		for _, name := range []string{"bash", "tr", "dirname"} {
			p, err := exec.LookPath(name)
			if err != nil {
				t.Skip(err)
			}
			write(filepath.Join(bare, name), "", 0o755)
			os.Remove(filepath.Join(bare, name))
			if err := os.Symlink(p, filepath.Join(bare, name)); err != nil {
				t.Fatal(err)
			}
		}
		noted, _ := step([]string{"PATH=" + bare}, "note")
		if o := outputs(noted["GITHUB_OUTPUT"]); o["go"] != "" {
			t.Fatalf("noted a go without one: %q", noted["GITHUB_OUTPUT"])
		}
		restored, out := step([]string{"PATH=" + setupGo + ":" + bare, "PERFGATE_JOB_GO="}, "restore")
		if restored["GITHUB_PATH"] != "" || !strings.Contains(out, "the job had no Go on PATH before this action") ||
			!strings.Contains(out, "go1.26.8") {
			t.Errorf("GITHUB_PATH %q, log:\n%s", restored["GITHUB_PATH"], out)
		}
	})
}

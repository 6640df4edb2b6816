package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
)

func TestActionRunsConfigSuites(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".perfgate.yml")
	yml := "suites:\n  - name: js\n    command:\n      run: \"echo '{\\\"a\\\": [1, 2, 3]}'\"\n      format: json-samples\n      unit: ms\n"
	if err := os.WriteFile(path, []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"GITHUB_REPOSITORY": "o/r", "GITHUB_SHA": strings.Repeat("d", 40), "GITHUB_REF_NAME": "main",
		"GITHUB_EVENT_NAME": "push", "PERFGATE_TESTBED": "gpu-1"}
	e := &cli.Env{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Getenv: func(k string) string { return vars[k] }}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	runActionSuites := func(ctx context.Context, e *cli.Env, cfg *config.Config, only *regexp.Regexp, rounds int) ([]*model.Results, error) {
		run, err := actionRunMeta(ctx, e)
		if err != nil {
			return nil, err
		}
		return newRunner(e).ConfigRuns(ctx, cfg, runner.ConfigOptions{Only: only}, rounds, run)
	}
	runs, err := runActionSuites(context.Background(), e, cfg, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	r := runs[0]
	if len(runs) != 1 || r.Run.Repo != "o/r" || r.Run.Testbed != "gpu-1" || r.Run.Event != "push" || len(r.Benchmarks) != 1 || r.Benchmarks[0].Suite != "js" {
		t.Errorf("got %+v", r)
	}
	for _, rounds := range []int{1, 3} {
		if _, err := runActionSuites(context.Background(), e, cfg, regexp.MustCompile("^nope$"), rounds); err == nil {
			t.Errorf("rounds %d: a filter that matches no suite was accepted", rounds)
		}
	}
	runs, err = runActionSuites(context.Background(), e, cfg, nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 3 || runs[0].Run.Group == "" || runs[2].Run.ID != runs[0].Run.Group+"-r3" || runs[2].Run.Event != "push" || runs[2].Run.Repo != "o/r" {
		t.Errorf("3 rounds: got %d runs, the last %+v", len(runs), runs[len(runs)-1].Run)
	}
}

// TestConfigOutputConfined runs a config whose command suite names an
// output outside its directory: perfgate removes a stale output before a
// run, so it must refuse the config (exit 2) and the file must survive
// (issue 10, item 12).
func TestConfigOutputConfined(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim.txt")
	if err := os.WriteFile(victim, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "repo")
	cfg := filepath.Join(sub, ".perfgate.yml")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	yml := "suites:\n  - name: a\n    command: {run: 'true', format: gotest, output: ../victim.txt}\n"
	if err := os.WriteFile(cfg, []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := invoke(t, nil, "run", "--config", cfg, "--out", filepath.Join(dir, "out.json"))
	if code != cli.ExitBadInput || !strings.Contains(errOut, "output") {
		t.Errorf("exit %d, stderr %q; want 2 naming output", code, errOut)
	}
	if b, err := os.ReadFile(victim); err != nil || string(b) != "keep me" {
		t.Errorf("the file outside the config's directory: %q, %v", b, err)
	}
}

// TestConfigDirConfined: a command suite's dir: must lie in the checkout
// of its .perfgate.yml (here, no git: the file's directory), links
// followed, and exist (issue 28, item 6: dir: ../../victim with output:
// deleted victim/<output>, a committed link did the same, an absolute
// dir: was silently joined under the config's folder, and a missing one
// read "fork/exec /usr/bin/sh: no such file or directory"). Each is exit 2
// naming the field, and the victim's file is kept.
func TestConfigDirConfined(t *testing.T) {
	cases := []struct{ name, dir, output, want string }{
		{"dir out of the checkout", "../victim", "out.json", "dir: "},
		{"dir through a link out", "link", "out.json", "dir: "},
		{"output through a link out", ".", "link/out.json", "output: "},
		{"absolute dir", "/tmp", "out.json", "must be a relative path"},
		{"missing dir", "nowhere", "out.json", "nowhere: no such directory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			victim := filepath.Join(dir, "victim", "out.json")
			sub := filepath.Join(dir, "repo")
			for _, d := range []string{filepath.Dir(victim), sub} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(victim, []byte("keep me"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("../victim", filepath.Join(sub, "link")); err != nil {
				t.Fatal(err)
			}
			yml := fmt.Sprintf("suites:\n  - name: a\n    command: {run: 'true', format: json-samples, unit: ms, dir: %q, output: %q}\n", c.dir, c.output)
			cfg := filepath.Join(sub, ".perfgate.yml")
			if err := os.WriteFile(cfg, []byte(yml), 0o644); err != nil {
				t.Fatal(err)
			}
			_, errOut, code := invoke(t, nil, "run", "--config", cfg, "--out", filepath.Join(dir, "results.json"), "--commit", strings.Repeat("a", 40))
			if code != cli.ExitBadInput || !strings.Contains(errOut, c.want) || strings.Contains(errOut, "fork/exec") {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errOut, c.want)
			}
			if b, err := os.ReadFile(victim); err != nil || string(b) != "keep me" {
				t.Errorf("the file outside the checkout: %q, %v", b, err)
			}
		})
	}
}

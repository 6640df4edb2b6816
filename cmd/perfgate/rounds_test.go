package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// TestMain lets the test binary stand in for perfgate in the processes that
// rounds start: with PERFGATE_TEST_AS_PERFGATE=1 it runs perfgate's main.
func TestMain(m *testing.M) {
	if os.Getenv("PERFGATE_TEST_AS_PERFGATE") == "1" {
		useHashGPUFromEnv() // cmd_action_skip_test.go
		os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
	}
	selfCommand = func(ctx context.Context, args []string) (*exec.Cmd, error) {
		exe, err := os.Executable()
		if err != nil {
			return nil, err
		}
		cmd := exec.CommandContext(ctx, exe, args...)
		cmd.Env = append(os.Environ(), "PERFGATE_TEST_AS_PERFGATE=1")
		return cmd, nil
	}
	os.Exit(m.Run())
}

// writeRoundsConfig writes a .perfgate.yml whose command suites append
// their name to order.log and report one benchmark of 5 samples, and whose
// prepare command appends "prepare". It returns the config path and the log.
func writeRoundsConfig(t *testing.T, suites ...string) (cfg, log string) {
	t.Helper()
	dir := t.TempDir()
	log = filepath.Join(dir, "order.log")
	var b strings.Builder
	fmt.Fprintf(&b, "version: 1\nprepare:\n  - echo prepare >> %s\nsuites:\n", log)
	for _, s := range suites {
		fmt.Fprintf(&b, "  - name: %s\n    command:\n      run: echo %s >> %s; for i in 1 2 3 4 5; do echo \"BenchmarkX-2 10 5$i ns/op\"; done\n      format: gotest\n", s, s, log)
	}
	cfg = filepath.Join(dir, ".perfgate.yml")
	if err := os.WriteFile(cfg, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg, log
}

func TestRunRoundsConfig(t *testing.T) {
	cfg, log := writeRoundsConfig(t, "a", "b", "c")
	out := t.TempDir()
	_, stderr, code := invoke(t, nil, "run", "--config", cfg, "--rounds", "3", "--out", out+"/", "--commit", roundsSHA, "--run-id", "job7", "--testbed", "tb")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	got, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	// Prepared once; round r runs the suites rotated left by r.
	want := "prepare\na\nb\nc\nb\nc\na\nc\na\nb\n"
	if string(got) != want {
		t.Errorf("order of the processes:\n%s\nwant\n%s", got, want)
	}
	var prev *model.Results
	for r := 1; r <= 3; r++ {
		res, err := resultsjson.Load(filepath.Join(out, fmt.Sprintf("round-%d.json", r)))
		if err != nil {
			t.Fatal(err)
		}
		if res.Run.ID != fmt.Sprintf("job7-r%d", r) || res.Run.Group != "job7" || res.Run.Commit != roundsSHA || res.Run.Testbed != "tb" {
			t.Errorf("round %d: run %+v, want id job7-r%d, group job7", r, res.Run, r)
		}
		var suites []string
		for _, b := range res.Benchmarks {
			suites = append(suites, b.Suite)
		}
		if !slices.Equal(suites, []string{"a", "b", "c"}) || len(res.Benchmarks[0].Samples) != 5 {
			t.Errorf("round %d: suites %v (want a, b, c in the config's order), samples %v", r, suites, res.Benchmarks[0].Samples)
		}
		if prev != nil && !res.Run.StartedAt.After(prev.Run.StartedAt) {
			t.Errorf("round %d started at %v, not after round %d (%v)", r, res.Run.StartedAt, r-1, prev.Run.StartedAt)
		}
		prev = res
	}
	if strings.Count(stderr, "perfgate: round ") != 9 {
		t.Errorf("stderr does not name each of the 9 processes:\n%s", stderr)
	}
}

func TestRunRoundsSuiteSubsetAndPattern(t *testing.T) {
	cfg, log := writeRoundsConfig(t, "a", "b", "c")
	out := filepath.Join(t.TempDir(), "pr-{round}.json")
	_, stderr, code := invoke(t, nil, "run", "--config", cfg, "--suite", "c,a", "--rounds", "2", "--out", out, "--commit", roundsSHA)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	got, _ := os.ReadFile(log)
	if string(got) != "prepare\na\nc\nc\na\n" {
		t.Errorf("order of the processes:\n%s", got)
	}
	r1, err1 := resultsjson.Load(strings.ReplaceAll(out, "{round}", "1"))
	r2, err2 := resultsjson.Load(strings.ReplaceAll(out, "{round}", "2"))
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if r1.Run.Group == "" || r1.Run.Group != r2.Run.Group || r1.Run.ID == r2.Run.ID || r1.Run.ID != r1.Run.Group+"-r1" {
		t.Errorf("rounds %q/%q and %q/%q: want one group and ids <group>-r1, -r2", r1.Run.ID, r1.Run.Group, r2.Run.ID, r2.Run.Group)
	}
}

func TestRunRoundsUsageErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--suite", "memory", "--rounds", "0"}, "-rounds: must be from 1 to 100, got 0"},
		{[]string{"run", "--suite", "memory", "--rounds", "3", "--out", "r.json"}, "-out: --rounds 3 writes 3 results files"},
		{[]string{"run", "--suite", "memory", "--skip-prepare"}, "-skip-prepare: applies to --config runs only"},
	} {
		if code, _, errs := runCmd(t, tt.args...); code != 2 || !strings.Contains(errs, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tt.args, code, errs, tt.want)
		}
	}
}

func TestRunRoundsChildFailureKeepsItsExitCode(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, ".perfgate.yml")
	yml := "version: 1\nsuites:\n  - name: bad\n    command:\n      run: exit 7\n      format: gotest\n"
	if err := os.WriteFile(cfg, []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := invoke(t, nil, "run", "--config", cfg, "--rounds", "2", "--out", dir+"/out/", "--commit", roundsSHA)
	if code != 3 || !strings.Contains(stderr, "round 1/2, bad: perfgate run --config") {
		t.Errorf("exit %d, stderr:\n%s\nwant 3 naming the round and the suite", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Error("a failed job wrote results files")
	}
}

const roundsSHA = "0123456789abcdef0123456789abcdef01234567"

// TestRoundsRecordedAsJobs records two baseline jobs of 3 rounds each and
// checks a third job's rounds: with --baseline-jobs 1 the baseline is the
// newest job, all three of its rounds, and the candidate is all its rounds.
func TestRoundsRecordedAsJobs(t *testing.T) {
	cfg, _ := writeRoundsConfig(t, "a", "b")
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	for _, job := range []string{"main1", "main2", "pr"} {
		event, branch := "push", "main"
		if job == "pr" {
			event, branch = "pull_request", "feature"
		}
		_, stderr, code := invoke(t, nil, "run", "--config", cfg, "--rounds", "3", "--out", filepath.Join(dir, job)+"/",
			"--commit", roundsSHA, "--run-id", job, "--event", event, "--branch", branch, "--testbed", "tb", "--repo", "o/r")
		if code != 0 {
			t.Fatalf("run %s: exit %d\n%s", job, code, stderr)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "main*", "*.json"))
	// Files first, flags after, as users type them.
	if _, stderr, code := invoke(t, nil, append(append([]string{"record"}, files...), "--store", store)...); code != 0 || len(files) != 6 {
		t.Fatalf("record %d files: exit %d\n%s", len(files), code, stderr)
	}
	cands, _ := filepath.Glob(filepath.Join(dir, "pr", "*.json"))
	args := append([]string{"check", "--store", store, "--baseline-jobs", "1", "--format", "json", "--config", cfg, "--candidate"}, cands...)
	out, stderr, code := invoke(t, nil, args...)
	if code != 0 {
		t.Fatalf("check: exit %d\n%s", code, stderr)
	}
	c := parseCheck(t, out)
	if got := refIDs(c.BaselineRuns); got != "main2-r3 main2-r2 main2-r1" {
		t.Errorf("baseline runs %q, want the newest job's three rounds", got)
	}
	if len(c.Benchmarks) != 2 || c.Summary.Unchanged+c.Summary.Insufficient != 2 {
		t.Errorf("benchmarks %+v", c.Benchmarks)
	}
}

// TestRunRoundsBuiltin runs a built-in suite (cmdpath's host benchmarks,
// no GPU needed) in 2 rounds: each round is one process of this binary and
// one results file, in one run group.
func TestRunRoundsBuiltin(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two perfgate processes")
	}
	out := t.TempDir()
	_, stderr, code := invoke(t, nil, "run", "--suite", "cmdpath", "--filter", "cmdpath/clone/.*mode=host", "--fast", "--max-time", "10ms",
		"--rounds", "2", "--out", out+"/", "--commit", roundsSHA, "--run-id", "job9")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for r := 1; r <= 2; r++ {
		res, err := resultsjson.Load(filepath.Join(out, fmt.Sprintf("round-%d.json", r)))
		if err != nil {
			t.Fatal(err)
		}
		if res.Run.ID != fmt.Sprintf("job9-r%d", r) || res.Run.Group != "job9" || len(res.Benchmarks) != 6 || res.Run.Env[kernels.EnvPerfgate] == "" {
			t.Errorf("round %d: run %+v, %d benchmarks; want id job9-r%d in group job9, 6 clone benchmarks, run.env.perfgate", r, res.Run, len(res.Benchmarks), r)
		}
	}
	if strings.Count(stderr, "perfgate: round ") != 2 {
		t.Errorf("stderr does not name each of the 2 processes:\n%s", stderr)
	}
}

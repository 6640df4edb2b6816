package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/config"
	"github.com/perfgate/perfgate/tracker/model"
)

func TestUserKernelsFromExample(t *testing.T) {
	cfg, err := config.Load("../../examples/kernels/.perfgate.yml")
	if err != nil {
		t.Fatal(err)
	}
	var s *config.Suite
	for i := range cfg.Suites {
		if cfg.Suites[i].Kernel != nil {
			s = &cfg.Suites[i]
		}
	}
	if s == nil {
		t.Fatal("the example declares no kernel suite")
	}
	uks, err := userKernels(cfg, s)
	if err != nil {
		t.Fatal(err)
	}
	// One UserKernel per -DUNROLL value, each with every n.
	if len(uks) != 2 {
		t.Fatalf("%d user kernels, want 2 (one per UNROLL)", len(uks))
	}
	k := uks[1]
	if k.Suite != s.Name || k.Entry != "saxpy" || !reflect.DeepEqual(k.Options, []string{"-DUNROLL=4"}) || !strings.Contains(k.Source, "saxpy_ref") {
		t.Errorf("kernel = suite %q entry %q options %v", k.Suite, k.Entry, k.Options)
	}
	if len(k.Cases) != 3 {
		t.Fatalf("%d cases, want 3", len(k.Cases))
	}
	c := k.Cases[2]
	want := kernels.UserCase{
		Params: map[string]string{"n": "67108864", "unroll": "4"},
		Buffers: []kernels.UserBuffer{{Name: "x", DType: "fp32", Len: 67108864, Init: "random"},
			{Name: "y", DType: "fp32", Len: 67108864, Init: "random", Output: true}},
		Args:  []kernels.UserArg{{Buffer: 0}, {Buffer: 1}, {Buffer: -1, DType: "fp32", Value: 2}, {Buffer: -1, DType: "i32", Value: 67108864}},
		Grid:  [3]uint32{65536, 1, 1},
		Block: [3]uint32{256, 1, 1},
		Bytes: 12 * 67108864, FLOPs: 2 * 67108864,
		Reference: &kernels.UserReference{Entry: "saxpy_ref"},
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("case =\n%+v\nwant\n%+v", c, want)
	}
}

func TestRunConfigSuitesCommand(t *testing.T) {
	dir := t.TempDir()
	yml := "suites:\n  - name: echo\n    command:\n      run: printf 'BenchmarkX-2 10 50 ns/op\\n'\n      format: gotest\n      repeat: 3\n"
	path := filepath.Join(dir, ".perfgate.yml")
	if err := os.WriteFile(path, []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	e := &env{Stdout: &bytes.Buffer{}, Stderr: &stderr, Getenv: func(string) string { return "" }}
	bs, gpuEnv, err := runConfigSuites(context.Background(), e, cfg, suiteRunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != 1 || bs[0].Suite != "echo" || len(bs[0].Samples) != 3 || gpuEnv != nil {
		t.Errorf("got %+v, env %v", bs, gpuEnv)
	}
}

func TestRunConfigSuitesKernelWithoutCUDA(t *testing.T) {
	if kernels.CUDA {
		t.Skip("this binary has CUDA; the GPU runner exercises kernel suites (kernels tests)")
	}
	cfg, err := config.Load("../../examples/kernels/.perfgate.yml")
	if err != nil {
		t.Fatal(err)
	}
	e := &env{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Getenv: func(string) string { return "" }}
	_, _, err = runConfigSuites(context.Background(), e, cfg, suiteRunOptions{Only: regexpMust(t, "^saxpy$")})
	var ie *model.InfraError
	if !errors.As(err, &ie) || !errors.Is(err, kernels.ErrNoCUDA) {
		t.Errorf("error = %v; want an InfraError wrapping ErrNoCUDA (exit 3)", err)
	}
}

func TestApplyConfig(t *testing.T) {
	cfg := &config.Config{
		Thresholds: config.Thresholds{Default: 0.05, Alpha: 0.05, Overrides: []config.ThresholdOverride{{Glob: "k/*", Threshold: 0.2}}},
		Better:     []config.BetterOverride{{Glob: "k/rate*", Better: model.Higher}, {Glob: "*", Better: model.Lower}},
		Ignore:     []string{"noisy/*"},
	}
	keys := []model.Key{{Suite: "k", Name: "rate[x]"}, {Suite: "k", Name: "time"}, {Suite: "other", Name: "a"}, {Suite: "k", Name: "time"}}
	got := applyConfig(compare.DefaultOptions(), cfg, map[string]bool{"alpha": true}, keys)
	if got.Threshold != 0.05 || got.Alpha != compare.DefaultOptions().Alpha {
		t.Errorf("threshold %v alpha %v: want the file's threshold and the flag's alpha", got.Threshold, got.Alpha)
	}
	want := []compare.Override{
		{Glob: `k/rate\[x\]`, Threshold: 0.2, Better: model.Higher},
		{Glob: "k/time", Threshold: 0.2, Better: model.Lower},
		{Glob: "other/a", Threshold: -1, Better: model.Lower},
	}
	if !reflect.DeepEqual(got.Overrides, want) || !reflect.DeepEqual(got.Ignore, []string{"noisy/*"}) {
		t.Errorf("overrides %+v ignore %v", got.Overrides, got.Ignore)
	}
	if err := got.Validate(); err != nil {
		t.Error(err)
	}
	if !compare.Match(got.Overrides[0].Glob, "k/rate[x]") || compare.Match(got.Overrides[0].Glob, "k/ratex") {
		t.Error("the escaped glob does not match exactly its key")
	}
}

func regexpMust(t *testing.T, s string) *regexp.Regexp {
	t.Helper()
	re, err := regexp.Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	return re
}

func TestActionRunsConfigSuites(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".perfgate.yml")
	yml := "suites:\n  - name: js\n    command:\n      run: \"echo '{\\\"a\\\": [1, 2, 3]}'\"\n      format: json-samples\n      unit: ms\n"
	if err := os.WriteFile(path, []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"GITHUB_REPOSITORY": "o/r", "GITHUB_SHA": strings.Repeat("d", 40), "GITHUB_REF_NAME": "main",
		"GITHUB_EVENT_NAME": "push", "PERFGATE_TESTBED": "gpu-1"}
	e := &env{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Getenv: func(k string) string { return vars[k] }}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
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
	if code != exitBadInput || !strings.Contains(errOut, "output") {
		t.Errorf("exit %d, stderr %q; want 2 naming output", code, errOut)
	}
	if b, err := os.ReadFile(victim); err != nil || string(b) != "keep me" {
		t.Errorf("the file outside the config's directory: %q, %v", b, err)
	}
}

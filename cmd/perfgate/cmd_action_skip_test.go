package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/fakegithub"
	"github.com/perfgate/perfgate/db/filestore"
	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/model"
)

// hashGPU is a fake GPU whose built-in suites have two benchmarks, add
// and mul, whose kernels compile to the hashes it holds; it skips them as
// kernels.SkipUnchanged says, as the real GPU does after compiling.
type hashGPU struct{ hashes map[string]string }

func (g *hashGPU) RunSuite(_ context.Context, suite string, o kernels.Options) ([]model.Benchmark, error) {
	var out []model.Benchmark
	for i, name := range []string{"add", "mul"} {
		h := g.hashes[name]
		if b, ok := kernels.SkipUnchanged(suite, name, nil, h, o.Unchanged); ok {
			out = append(out, b)
			continue
		}
		s := make([]float64, 20)
		for j := range s {
			s[j] = 100*float64(i+1) + float64(j%5)*0.1
		}
		out = append(out, model.Benchmark{Suite: suite, Name: name, Unit: "us", Better: model.Lower, Samples: s,
			Info: map[string]string{"ptx_sha256": h}})
	}
	return out, nil
}

func (g *hashGPU) RunUserKernel(context.Context, kernels.UserKernel, kernels.Options) ([]model.Benchmark, error) {
	return nil, errors.New("hashGPU: no user kernels")
}

func (g *hashGPU) Env() map[string]string { return map[string]string{model.EnvGPU: "Fake GPU"} }

// hashGPUEnv carries hashGPU's hashes ("add=H,mul=H") to the processes of
// rounds, which run the test binary as perfgate (TestMain).
const hashGPUEnv = "PERFGATE_TEST_HASH_GPU"

// useHashGPUFromEnv makes a process of rounds measure on a hashGPU when
// hashGPUEnv is set.
func useHashGPUFromEnv() {
	v := os.Getenv(hashGPUEnv)
	if v == "" {
		return
	}
	gpu := &hashGPU{hashes: map[string]string{}}
	for _, kv := range strings.Split(v, ",") {
		k, h, _ := strings.Cut(kv, "=")
		gpu.hashes[k] = h
	}
	openGPU = func(context.Context) (runner.GPU, func(), error) { return gpu, func() {}, nil }
}

// TestActionSkipUnchangedKernels: with skip-unchanged-kernels, a pull
// request does not measure the benchmarks whose PTX hash is the baseline's,
// and the comment lists them with the reason; a changed hash is measured
// and judged; the input off measures everything; a push always measures
// everything (a baseline must be complete), and the command suite is
// measured in full, as the log says. With rounds, each suite's process
// skips too.
func TestActionSkipUnchangedKernels(t *testing.T) {
	gpu := &hashGPU{hashes: map[string]string{"add": "aaaa", "mul": "mmmm"}}
	old := openGPU
	openGPU = func(context.Context) (runner.GPU, func(), error) { return gpu, func() {}, nil }
	t.Cleanup(func() { openGPU = old })

	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	cfg := filepath.Join(dir, ".perfgate.yml")
	yml := "version: 1\nsuites:\n  - name: ew\n    builtin: {suite: elementwise}\n" +
		"  - name: host\n    command:\n      run: for i in 1 2 3 4 5; do echo \"BenchmarkX-2 10 5$i ns/op\"; done\n      format: gotest\n"
	if err := os.WriteFile(cfg, []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	common := map[string]string{"config": cfg, "store-dir": store, "rounds": "1", "pre-run-checks": "off", "skip-unchanged-kernels": "true"}
	with := func(extra map[string]string) map[string]string {
		in := map[string]string{}
		for _, m := range []map[string]string{common, extra} {
			for k, v := range m {
				in[k] = v
			}
		}
		return in
	}
	// Two pushes: the second has a baseline with the same hashes and still
	// measures everything.
	for i := range 2 {
		vars := actionVars(t, "push", "push.json", "refs/heads/master", with(nil))
		vars["PERFGATE_TESTBED"], vars["GITHUB_RUN_ID"] = "gpu-1", string(rune('1'+i))
		code, stdout, stderr := runActionInProcess(t, vars)
		if code != 0 {
			t.Fatalf("push %d: exit %d\n%s\n%s", i, code, stdout, stderr)
		}
		if strings.Contains(stderr, "skip-unchanged-kernels") {
			t.Errorf("push %d mentions skipping:\n%s", i, stderr)
		}
	}
	if n := skippedInStore(t, store); n != 0 {
		t.Fatalf("the recorded baseline has %d skipped benchmarks, want 0", n)
	}

	tests := []struct {
		name    string
		mul     string // mul's hash in the pull request
		skip    string // the input
		rounds  string // 3: each suite in its own process per round
		want    []string
		wantNot []string
	}{
		{"unchanged: both skipped", "mmmm", "true", "1",
			[]string{"2 skipped", "2 benchmarks skipped, not measured: kernel unchanged since the baseline", "<code>ew/add</code>", "<code>ew/mul</code>"}, nil},
		{"mul changed: measured and judged", "m2m2", "true", "1",
			[]string{"1 skipped", "<code>ew/add</code> | kernel unchanged since the baseline (PTX sha256 aaaa)", "<code>ew/mul</code> | 200.2", "40/20 | unchanged"},
			[]string{"<code>ew/mul</code> | kernel unchanged"}},
		{"input off: nothing skipped", "mmmm", "false", "1", nil, []string{"skipped", "skip-unchanged-kernels"}},
		{"three rounds in processes: mul changed", "m2m2", "true", "3",
			[]string{"1 skipped", "<code>ew/add</code> | kernel unchanged since the baseline (PTX sha256 aaaa)", "<code>ew/mul</code> | 200.2", "40/60 | unchanged"},
			[]string{"<code>ew/mul</code> | kernel unchanged"}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gpu.hashes["mul"] = tt.mul
			t.Setenv(hashGPUEnv, "add="+gpu.hashes["add"]+",mul="+tt.mul)
			fake := fakegithub.New(t, "ghs_tok")
			vars := prVars(t, fake, "", with(map[string]string{"skip-unchanged-kernels": tt.skip, "rounds": tt.rounds}))
			vars["PERFGATE_TESTBED"], vars["GITHUB_RUN_ID"] = "gpu-1", string(rune('a'+i))
			code, stdout, stderr := runActionInProcess(t, vars)
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			cs := fake.Comments("Codertocat", "Hello-World", e2ePR)
			if len(cs) != 1 {
				t.Fatalf("%d comments, want 1", len(cs))
			}
			if note := "suites host are measured in full"; (tt.skip == "true") != strings.Contains(stderr, note) {
				t.Errorf("skip-unchanged-kernels %s: the log's note %q is wrong:\n%s", tt.skip, note, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(cs[0].Body, w) {
					t.Errorf("the comment lacks %q:\n%s", w, cs[0].Body)
				}
			}
			for _, w := range tt.wantNot {
				if strings.Contains(cs[0].Body, w) {
					t.Errorf("the comment has %q:\n%s", w, cs[0].Body)
				}
			}
			st := fake.Statuses("Codertocat", "Hello-World", e2eHeadSHA)
			if len(st) == 0 || st[len(st)-1].State != "success" {
				t.Errorf("statuses %+v, want a success last", st)
			}
		})
	}
	gpu.hashes["mul"] = "mmmm"
}

// skippedInStore counts the skipped benchmarks of master's recorded runs.
func skippedInStore(t *testing.T, dir string) int {
	t.Helper()
	s, err := filestore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Baseline(context.Background(), model.BaselineQuery{Branch: "master", Jobs: 10, Testbed: model.Fingerprint{Testbed: "gpu-1"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Runs) != 2 {
		t.Fatalf("%d recorded runs, want 2", len(b.Runs))
	}
	n := 0
	for _, r := range b.Runs {
		for _, x := range r.Benchmarks {
			if x.Info[model.InfoSkipped] != "" {
				n++
			}
		}
	}
	return n
}

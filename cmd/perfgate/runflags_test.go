package main

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/internal/childspec"
	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/runner"
	"github.com/perfgate/perfgate/tracker/runmeta"
)

// TestChildSpecIsTheFlags: a perfgate run process that reads a spec gets
// the settings and run metadata it got from the flags runner re-built
// before the spec (each case's command line, as runner wrote it, then
// --out and the run-metadata flags), under environment defaults that the
// flags left alone; and childLine, the command line messages name it by,
// is that command line.
func TestChildSpecIsTheFlags(t *testing.T) {
	vars := map[string]string{"PERFGATE_SIZE": "large", "PERFGATE_PACE": "0.5", "PERFGATE_TESTBED": "env-bed", "PERFGATE_CACHE": "/cache"}
	e := &cli.Env{Stdout: &strings.Builder{}, Stderr: &strings.Builder{}, Getenv: func(k string) string { return vars[k] }}
	meta := runmeta.Given{ID: "job-r1-part", Repo: "o/r", Commit: roundsSHA, Branch: "b", Event: "pull_request", Testbed: "tb", PR: 7}
	metaArgs := []string{"--run-id", "job-r1-part", "--repo", "o/r", "--commit", roundsSHA, "--branch", "b", "--event", "pull_request", "--testbed", "tb", "--pr", "7"}
	for _, tt := range []struct {
		name string
		s    runner.Settings
		line string
	}{
		{"a built-in suite of a round", runner.Settings{Suites: "rowwise", Size: "small", Filter: "layernorm|memcpy", Ops: "layernorm,memcpy", DTypes: "fp32",
			MaxTime: 2 * time.Second, Fast: true, Pace: "off", SkipUnchanged: "base.json"},
			"run --suite rowwise --size small --filter layernorm|memcpy --op layernorm,memcpy --dtype fp32 --max-time 2s --fast --pace off --skip-unchanged-against base.json"},
		{"a GPU of --devices", runner.Settings{Suites: "rowwise,memory", Size: "ci", Strict: true}, "run --suite rowwise,memory --size ci --strict"},
		{"a config suite of a round", runner.Settings{Config: "/r/.perfgate.yml", Suites: "mine", SkipPrepare: true, Fast: true, SkipUnchanged: "a.json,b.json"},
			"run --config /r/.perfgate.yml --suite mine --skip-prepare --fast --skip-unchanged-against a.json,b.json"},
		{"a confirmation of a config suite", runner.Settings{Config: "/r/.perfgate.yml", Suites: "mine", SkipPrepare: true},
			"run --config /r/.perfgate.yml --suite mine --skip-prepare"},
		{"a confirmation of built-in benchmarks", runner.Settings{Suites: "elementwise", Size: "small", Filter: "^elementwise/(add/n=4K|mul/n=4K)$"},
			"run --suite elementwise --size small --filter ^elementwise/(add/n=4K|mul/n=4K)$"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := childLine(tt.s); got != "perfgate "+tt.line {
				t.Errorf("childLine:\n%s\nwant\nperfgate %s", got, tt.line)
			}
			flags, fmeta, _, err := parseRunFlags(append(append(strings.Fields(tt.line)[1:], "--out", "o.json"), metaArgs...), e)
			if err != nil {
				t.Fatal(err)
			}
			c := runner.Child{Settings: tt.s, Meta: meta}
			c.Out = "o.json"
			data, err := childspec.Encode(runner.ChildVersion, c)
			if err != nil {
				t.Fatal(err)
			}
			spec, smeta, _, err := parseRunFlags([]string{"--spec", string(data)}, e)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(spec, flags) {
				t.Errorf("from the spec:\n%+v\nfrom the flags:\n%+v", spec, flags)
			}
			if *smeta != *fmeta {
				t.Errorf("run metadata from the spec %+v, from the flags %+v", *smeta, *fmeta)
			}
		})
	}
	if _, _, _, err := parseRunFlags([]string{"--spec", "{}", "--fast"}, e); err == nil || !strings.Contains(err.Error(), "--spec takes no other flags") {
		t.Errorf("--spec with another flag: %v", err)
	}
	if _, _, _, err := parseRunFlags([]string{"--spec", `{"version":9,"spec":{}}`}, e); cli.Code(err, &strings.Builder{}) != cli.ExitBadInput {
		t.Errorf("a spec of another version: %v, want a usage error", err)
	}
}

// TestWorkerSpec: a sharing-suite worker reads the workload the suite
// hands over (sharing.Work.Spec, after the worker command's --spec) as its
// flags give it, and refuses a bad spec as bad usage.
func TestWorkerSpec(t *testing.T) {
	e := &cli.Env{Stdout: &strings.Builder{}, Stderr: &strings.Builder{}, Getenv: func(string) string { return "" }}
	w := kernels.SharingWork{Blocks: 2, Threads: 64, Iters: 10, Launches: 3}
	spec, err := w.Spec()
	if err != nil {
		t.Fatal(err)
	}
	if cmd := workerCommand(); len(cmd) < 2 || !slices.Equal(cmd[len(cmd)-2:], []string{"worker", "--spec"}) {
		t.Errorf("the worker command %q does not end in worker --spec", cmd)
	}
	flags := []string{"--blocks", "2", "--threads", "64", "--iters", "10", "--launches", "3"}
	if fromFlags, err := parseWorker(flags, e); err != nil || fromFlags != w {
		t.Fatalf("from the flags %q: %+v, %v", flags, fromFlags, err)
	}
	if got, err := parseWorker([]string{"--spec", spec}, e); err != nil || got != w {
		t.Errorf("from the spec %s: %+v, %v; want %+v", spec, got, err, w)
	}
	for _, args := range [][]string{{"--spec", `{"version":2,"spec":{}}`}, {"--spec"}, {"--spec", spec, "--blocks", "1"}} {
		if _, stderr, code := invoke(t, nil, append([]string{"worker"}, args...)...); code != 2 || !strings.Contains(stderr, "worker: --spec") {
			t.Errorf("worker %q: exit %d, %s; want a usage error naming --spec", args, code, stderr)
		}
	}
}

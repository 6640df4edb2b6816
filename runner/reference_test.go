package runner

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/runner/torchref"
	"github.com/perfgate/perfgate/tracker/model"
)

// fakeTorchPython stands in for a python3 with torch: probe answers
// $FAKE_PROBE; run runs the harness perfgate wrote out (its pure modules)
// on the file of specs, writing canned samples (3 µs) for every case in the
// harness's own names, and keeps a copy of the file in $SEEN.
const fakeTorchPython = `#!/bin/sh
if [ "$3" = probe ]; then echo "$FAKE_PROBE"; exit 0; fi
if [ -n "${FAKE_RUN_FAIL:-}" ]; then echo "$FAKE_RUN_FAIL" >&2; exit 1; fi
exec REALPY - "$4" "$5" <<'PY'
import json, os, sys
from perfgate_harness import loop, pace, results
doc = json.load(open(sys.argv[1]))
json.dump(doc, open(os.path.join(os.environ["SEEN"], doc["specs"][0]["suite"] + ".json"), "w"))
bs = []
for spec in doc["specs"]:
    for case in spec["cases"]:
        params = dict(case["params"], **({"dtype": case["dtype"]} if case.get("dtype") else {}))
        for mode in spec["modes"]:
            m = loop.Measurement(mode, 1, 30_000_000, "")
            m.samples, m.clocks, m.stop, m.pace = [3.0] * 10, [0] * 10, "max-samples 40", pace.new_pacer("")
            bs.append(results.to_benchmark(spec["suite"], spec["name"], params, m))
results.write_results(sys.argv[2], results.new_run(env={"gpu": "NVIDIA H100 80GB HBM3", "torch": "2.11.0"}), bs)
PY
`

// fakePython puts a python3 answering probe with probe first on PATH and
// returns the directory where it keeps the specs it ran.
func fakePython(t *testing.T, probe string) string {
	real, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on PATH")
	}
	bin, seen := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "python3"), []byte(strings.Replace(fakeTorchPython, "REALPY", real, 1)), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("FAKE_PROBE", probe)
	t.Setenv("SEEN", seen)
	return seen
}

const (
	probeTorch   = `{"torch": "2.11.0+cu130", "cuda": true, "flash_attn": "", "error": ""}`
	probeNoTorch = `{"torch": "", "cuda": false, "flash_attn": "", "error": "import torch: ModuleNotFoundError: No module named 'torch'"}`
)

// TestProbeReference: --reference torch without PyTorch is an input error
// before anything runs; auto says so and runs without; either settles
// Options.Reference for the processes of rounds.
func TestProbeReference(t *testing.T) {
	for _, tc := range []struct {
		name, probe, mode string
		wantErr, wantLog  string
		want              string // Options.Reference afterwards
	}{
		{"torch", probeTorch, ReferenceTorch, "", "flash_attn does not import: attention is compared with SDPA only", ReferenceTorch},
		{"auto with torch", probeTorch, ReferenceAuto, "", "", ReferenceTorch},
		{"no torch", probeNoTorch, ReferenceTorch, "--reference torch: import torch: ModuleNotFoundError: No module named 'torch'; install PyTorch", "", ""},
		{"auto without torch", probeNoTorch, ReferenceAuto, "", "--reference auto: running without PyTorch references: import torch: ModuleNotFoundError", ""},
		{"no GPU", `{"torch": "2.11.0", "cuda": false, "error": ""}`, ReferenceTorch, "torch 2.11.0 sees no CUDA device", "", ""},
		{"garbage", `Traceback`, ReferenceTorch, `probe wrote "Traceback"`, "", ""},
		{"off", probeNoTorch, "", "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fakePython(t, tc.probe)
			var log strings.Builder
			r := &Runner{Log: &log, CacheDir: t.TempDir()}
			o := Options{Suites: []string{"elementwise", "attention"}, Reference: tc.mode}
			te, err := r.probeReference(context.Background(), &o)
			if tc.wantErr != "" {
				if !model.IsInputError(err) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want an input error %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || (te != nil) != (tc.want != "") || o.Reference != tc.want || !strings.Contains(log.String(), tc.wantLog) {
				t.Errorf("te %+v, err %v, reference %q, log %q", te, err, o.Reference, log.String())
			}
		})
	}
}

// TestWithReferences runs the references of the ci elementwise and
// microbatch suites through the harness perfgate writes out (on a fake
// python3) and merges them: every built-in benchmark gets speedup_vs_torch
// (3 µs over its 2), the arms follow as benchmarks of their own, the run
// env names torch's version.
func TestWithReferences(t *testing.T) {
	seen := fakePython(t, probeTorch)
	r := &Runner{Log: &strings.Builder{}, CacheDir: t.TempDir()}
	o := Options{Reference: ReferenceTorch}
	te, err := r.probeReference(context.Background(), &o)
	if err != nil {
		t.Fatal(err)
	}
	suites := []string{"memory", "elementwise", "microbatch"}
	k := kernels.Options{Size: kernels.SizeCI}
	var bs []model.Benchmark
	for _, s := range kernels.ListFor(k) {
		for _, n := range s.Benchmarks {
			if s.Name != "memory" && s.Name != "elementwise" && s.Name != "microbatch" {
				continue
			}
			bs = append(bs, model.Benchmark{Suite: s.Name, Name: n, Unit: "us", Better: model.Lower, Samples: []float64{2},
				Metrics: map[string]float64{"median_us": 2}})
		}
	}
	got, env, err := r.withReferences(context.Background(), te, suites, k, bs, map[string]string{"gpu": "x"})
	if err != nil {
		t.Fatal(err)
	}
	if env["torch"] != "2.11.0+cu130" || env["gpu"] != "x" {
		t.Errorf("env %v", env)
	}
	arms := 7*6*2 + 3*2 // elementwise: 7 ops × 3 dtypes × 2 sizes; microbatch: eager, graph, compile; both modes
	if len(got) != len(bs)+arms {
		t.Fatalf("%d benchmarks, want %d built-in and %d arms", len(got), len(bs), arms)
	}
	for _, b := range got[:len(bs)] {
		_, has := b.Metrics["speedup_vs_torch"]
		if b.Suite == "memory" {
			if has {
				t.Errorf("%s/%s has a PyTorch speedup", b.Suite, b.Name)
			}
			continue
		}
		if v := b.Metrics["speedup_vs_torch"]; v != 1.5 || !strings.HasPrefix(b.Info["reference_torch"], b.Suite+"/torch.") {
			t.Errorf("%s/%s: speedup_vs_torch %v, info %v", b.Suite, b.Name, v, b.Info)
		}
		if b.Suite == "microbatch" && (b.Metrics["speedup_vs_torch_graph"] != 1.5 || b.Metrics["speedup_vs_torch_compile"] != 1.5) {
			t.Errorf("%s/%s: %v", b.Suite, b.Name, b.Metrics)
		}
	}
	if err := Validate(&model.Results{Schema: model.Schema, Run: model.Run{ID: "r", Repo: "o/r", Commit: strings.Repeat("a", 40),
		Branch: "main", Event: "push", Testbed: "t", Env: env}, Benchmarks: got}); err != nil {
		t.Errorf("the merged results are invalid: %v", err)
	}
	var f torchref.File
	data, err := os.ReadFile(filepath.Join(seen, "microbatch.json"))
	if err == nil {
		err = json.Unmarshal(data, &f)
	}
	if err != nil || len(f.Specs) != 3 || f.Specs[0].Size != kernels.SizeCI || f.Specs[0].Graph ||
		!strings.HasSuffix(f.Specs[0].Module, "/perfgate_harness/torchref.py") {
		t.Errorf("microbatch spec %+v (%v)", f, err)
	}
	if _, err := os.Stat(filepath.Join(seen, "memory.json")); err == nil {
		t.Error("memory's references ran: it has none")
	}
}

// TestReferencesProcessFails: a harness process that dies leaves the
// suite's own results standing, and every arm it was to measure an error
// benchmark saying why; the run goes on.
func TestReferencesProcessFails(t *testing.T) {
	fakePython(t, probeTorch)
	t.Setenv("FAKE_RUN_FAIL", "torch.AcceleratorError: CUDA error: an illegal memory access was encountered")
	var log strings.Builder
	r := &Runner{Log: &log, CacheDir: t.TempDir()}
	o := Options{Reference: ReferenceTorch}
	te, err := r.probeReference(context.Background(), &o)
	if err != nil {
		t.Fatal(err)
	}
	k := kernels.Options{Size: kernels.SizeCI}
	bs := []model.Benchmark{{Suite: "mixedops", Name: "fused/n=64K/iters=1000/mode=cold", Unit: "us", Better: model.Lower,
		Samples: []float64{2}, Metrics: map[string]float64{"median_us": 2}}}
	got, _, err := r.withReferences(context.Background(), te, []string{"mixedops"}, k, bs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1+3*2 || got[0].Metrics["median_us"] != 2 {
		t.Fatalf("%d benchmarks: %+v", len(got), got)
	}
	for _, b := range got[1:] {
		if !strings.HasPrefix(b.Name, "torch.") || !strings.Contains(b.Error, "the PyTorch references' process failed: exit status 1: torch.AcceleratorError: CUDA error") {
			t.Errorf("%s: error %q", b.Name, b.Error)
		}
	}
	if !strings.Contains(log.String(), "--reference: suite mixedops: the PyTorch references' process failed") {
		t.Errorf("log %q", log.String())
	}
}

// TestReferenceArgs: the processes of rounds and --devices get the
// settled reference.
func TestReferenceArgs(t *testing.T) {
	o := Options{Suites: []string{"memory"}, Reference: ReferenceTorch}
	if got, want := builtinArgs(o), []string{"run", "--suite", "memory", "--reference", "torch"}; !reflect.DeepEqual(got, want) {
		t.Errorf("worker args %q, want %q", got, want)
	}
	if got := referenceArgs(Options{}); got != nil {
		t.Errorf("no reference: %q", got)
	}
}

package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/kernels"
	"github.com/perfgate/perfgate/runner/pyspec"
	"github.com/perfgate/perfgate/tracker/config"
)

// fakeInterpreter stands in for a python with torch: it runs the harness
// perfgate wrote out (the pure modules, found through PYTHONPATH) on the spec,
// writing canned samples for every case in the harness's own benchmark
// names, and keeps a copy of the spec in its working directory.
const fakeInterpreter = `#!/bin/sh
exec python3 - "$4" "$5" <<'PY'
import json, sys
from perfgate_harness import loop, pace, results
spec = json.load(open(sys.argv[1]))
json.dump(spec, open("spec-seen.json", "w"))
bs = []
for case in spec["cases"]:
    params = dict(case["params"], **({"dtype": case["dtype"]} if case.get("dtype") else {}))
    ops = [(spec["name"], 2.0)] + ([(spec["reference"]["name"], 3.0)] if spec.get("reference") else [])
    for op, us in ops:
        for mode in spec["modes"]:
            m = loop.Measurement(mode, 1, 30_000_000, "")
            m.samples, m.clocks, m.stop, m.pace = [us] * 10, [0] * 10, "max-samples 40", pace.new_pacer("")
            ref = spec["suite"] + "/" + results.benchmark_name(ops[1][0], params, mode) if op == spec["name"] and len(ops) > 1 else ""
            bs.append(results.to_benchmark(spec["suite"], op, params, m, case["bytes"], case["flops"], reference=ref))
results.add_ref_speedups(bs)
results.write_results(sys.argv[2], results.new_run(env={"gpu": "NVIDIA H100 80GB HBM3", "cuda": "13.0"}), bs)
PY
`

// TestConfigPythonSuite runs a python suite end to end without torch: the
// spec perfgate writes, the embedded harness's writer, the results read
// back, named as --list names them, with the harness's GPU fingerprint as
// the run's environment. The GPU is never opened by perfgate itself.
func TestConfigPythonSuite(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 on PATH")
	}
	dir := t.TempDir()
	yml := "suites:\n  - name: tri\n    python:\n      module: k.py\n      function: triton_add\n      interpreter: bin/python\n" +
		"      reference: {function: torch_add}\n      sweep: {n: [1024, 4096]}\n      dtypes: [fp16]\n      bytes: 3 * n * elem_bytes\n"
	for name, data := range map[string]string{".perfgate.yml": yml, "k.py": "", "bin/python": fakeInterpreter} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := config.Load(filepath.Join(dir, ".perfgate.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	r := &Runner{Log: &log, Version: "v9", CacheDir: t.TempDir(), OpenGPU: func(context.Context) (GPU, func(), error) {
		t.Fatal("a python suite opened the GPU")
		return nil, nil, nil
	}}
	bs, env, err := r.Config(context.Background(), cfg, ConfigOptions{Fast: true})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	var names []string
	for _, b := range bs {
		names = append(names, b.Name)
	}
	want, err := pythonNames(cfg, &cfg.Suites[0])
	if err != nil || !reflect.DeepEqual(names, want) || len(names) != 8 {
		t.Errorf("benchmarks %v, want the listed %v (%v)", names, want, err)
	}
	if b := bs[0]; b.Suite != "tri" || b.Metrics["speedup_vs_torch_add"] != 1.5 || b.Metrics["gbps"] != 3*1024*2/2e-6/1e9 {
		t.Errorf("first benchmark %+v", b)
	}
	if env["gpu"] != "NVIDIA H100 80GB HBM3" || env[kernels.EnvPerfgate] != "v9" {
		t.Errorf("run env %v", env)
	}
	var spec pyspec.Spec
	data, err := os.ReadFile(filepath.Join(dir, "spec-seen.json"))
	if err == nil {
		err = json.Unmarshal(data, &spec)
	}
	if err != nil || !spec.Fast || spec.Module != filepath.Join(dir, "k.py") || spec.Reference.Function != "torch_add" ||
		len(spec.Cases) != 2 || spec.Cases[1].Bytes != 3*4096*2 || spec.Cases[1].DType != "fp16" {
		t.Errorf("spec %+v (%v)", spec, err)
	}
	if !strings.Contains(log.String(), "suite tri: ") {
		t.Errorf("no progress line in the log:\n%s", log.String())
	}
}

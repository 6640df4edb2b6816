package config

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

func TestParseFull(t *testing.T) {
	c, err := Load("testdata/full.yml")
	if err != nil {
		t.Fatal(err)
	}
	if got := len(c.Suites); got != 4 {
		t.Fatalf("%d suites, want 4", got)
	}
	cmd := c.Suites[0].Command
	want := &Command{Run: "go test -run '^$' -bench . -count 5 -benchtime 50ms ./examples/benchpkg", Dir: ".", Format: "gotest",
		Repeat: 2, Timeout: 5 * time.Minute, Env: []string{"GOMAXPROCS=2"}}
	if !reflect.DeepEqual(cmd, want) {
		t.Errorf("command = %+v, want %+v", cmd, want)
	}
	if c.Suites[1].Command.Repeat != 1 || c.Suites[1].Command.Output != "out/bench.json" {
		t.Errorf("pybench = %+v", c.Suites[1].Command)
	}
	b := c.Suites[3].Builtin
	if b.Suite != "memory" || b.Size != "small" || !reflect.DeepEqual(b.DTypes, []string{"fp32", "bf16"}) || !b.Fast || b.MaxTime != 30*time.Second {
		t.Errorf("builtin = %+v", b)
	}
	th := c.Thresholds
	if th.Default != 0.10 || th.Alpha != 0.01 || th.Correction != "bh" || th.MinSamples != 5 {
		t.Errorf("thresholds = %+v", th)
	}
	if !reflect.DeepEqual(th.Overrides, []ThresholdOverride{{"saxpy/*", 0.05}, {"benchpkg/BenchmarkInsertionSort*", 0.2}}) {
		t.Errorf("overrides = %+v", th.Overrides)
	}
	if !reflect.DeepEqual(c.Ignore, []string{"benchpkg/*procs=1"}) || !reflect.DeepEqual(c.Better, []BetterOverride{{"memory/*gbps*", model.Higher}}) {
		t.Errorf("ignore/better = %v %v", c.Ignore, c.Better)
	}
	if c.Baseline != (Baseline{Branch: "main", Jobs: 5, Testbed: "h100-1"}) {
		t.Errorf("baseline = %+v", c.Baseline)
	}
	if !reflect.DeepEqual(c.Prepare, []string{"go build ./..."}) {
		t.Errorf("prepare = %v", c.Prepare)
	}
}

func TestKernelCases(t *testing.T) {
	c, err := Load("testdata/full.yml")
	if err != nil {
		t.Fatal(err)
	}
	k := c.Suites[2].Kernel
	if k.Name != "saxpy" || k.Reference.Entry != "saxpy_ref" || k.Reference.Tolerance != 1e-6 || !reflect.DeepEqual(k.SpeedupVs, map[string]string{"unroll": "1"}) {
		t.Errorf("kernel = %+v", k)
	}
	cases, err := k.Cases()
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 4 {
		t.Fatalf("%d cases, want 4", len(cases))
	}
	// The first parameter is outermost: n=16777216, unroll=4 is the last point.
	last := cases[3]
	want := Case{
		Params:  map[string]string{"n": "16777216", "unroll": "4"},
		Options: []string{"-DUNROLL=4"},
		Buffers: []CaseBuffer{{Name: "x", DType: "fp32", Len: 16777216, Init: "random"}, {Name: "y", DType: "fp32", Len: 16777216, Init: "random", Output: true}},
		Args:    []CaseArg{{Buffer: 0}, {Buffer: 1}, {Buffer: -1, DType: "fp32", Value: 2.5}, {Buffer: -1, DType: "i32", Value: 16777216}},
		Grid:    [3]uint32{16384, 1, 1},
		Block:   [3]uint32{256, 1, 1},
		Bytes:   12 * 16777216,
		FLOPs:   2 * 16777216,
	}
	if !reflect.DeepEqual(last, want) {
		t.Errorf("case 3 =\n%+v\nwant\n%+v", last, want)
	}
	if cases[1].Params["unroll"] != "4" || cases[1].Grid[0] != 1024 {
		t.Errorf("case 1 = %+v", cases[1])
	}
}

func TestParseErrors(t *testing.T) {
	const kernel = "suites:\n  - name: k\n    kernel:\n      source: a.cu\n      entry: f\n      sweep: {n: [1000]}\n"
	tests := []struct{ name, yaml, want string }{
		{"empty", "", "c.yml: the configuration is empty"},
		{"no suites", "baseline: {runs: 3}\n", "c.yml: line 1: suites: at least one suite is required"},
		{"unknown top key", "suites: []\nthreshold: 5%\n", "c.yml: line 2: threshold: unknown key (allowed: baseline, better, ignore, prepare, suites, thresholds, version)"},
		{"unknown suite key", "suites:\n  - name: a\n    cmd: x\n", "line 3: suites[0].cmd: unknown key"},
		{"two kinds", "suites:\n  - name: a\n    command: {run: x, format: gotest}\n    builtin: {suite: memory}\n", "line 2: suites[0]: a suite needs exactly one of"},
		{"no kind", "suites:\n  - name: a\n", "a suite needs exactly one of"},
		{"bad name", "suites:\n  - name: a b\n    builtin: {suite: m}\n", "suites[0].name: \"a b\": use letters"},
		{"dup name", "suites:\n  - name: a\n    builtin: {suite: m}\n  - name: a\n    builtin: {suite: m}\n", "line 4: suites[1].name: suite \"a\" is already declared on line 2"},
		{"bad format", "suites:\n  - name: a\n    command: {run: x, format: junit}\n", "line 3: suites[0].command.format: \"junit\" is not one of gotest"},
		{"no run", "suites:\n  - name: a\n    command: {format: gotest}\n", "suites[0].command.run: a command suite needs run:"},
		{"bad repeat", "suites:\n  - name: a\n    command:\n      run: x\n      format: gotest\n      repeat: 0\n", "line 6: suites[0].command.repeat: must be a whole number from 1 to 1000, not \"0\""},
		{"bad timeout", "suites:\n  - name: a\n    command: {run: x, format: gotest, timeout: 5}\n", "suites[0].command.timeout: must be a positive duration"},
		{"output out of the directory", "suites:\n  - name: a\n    command: {run: x, format: gotest, output: ../victim.txt}\n", `suites[0].command.output: "../victim.txt": must be a relative path inside`},
		{"output absolute", "suites:\n  - name: a\n    command: {run: x, format: gotest, output: /etc/passwd}\n", `suites[0].command.output: "/etc/passwd": must be a relative path inside`},
		{"criterion needs output", "suites:\n  - name: a\n    command: {run: cargo bench, format: criterion}\n", "criterion writes files"},
		{"bad env", "suites:\n  - name: a\n    command: {run: x, format: gotest, env: {1X: y}}\n", "suites[0].command.env.1X: not a valid environment variable name"},
		{"ambiguous threshold", "suites:\n  - name: a\n    builtin: {suite: m}\nthresholds: {default: 0.1}\n", "line 4: thresholds.default: \"0.1\" is ambiguous: write 10% for 10 percent, or 0.1% for 0.1 percent"},
		{"zero threshold", "suites:\n  - name: a\n    builtin: {suite: m}\nthresholds: {default: 0%}\n", "line 4: thresholds.default: must be above 0%"},
		{"threshold out of range", "suites:\n  - name: a\n    builtin: {suite: m}\nthresholds: {benchmarks: {\"a/*\": 2000%}}\n", "line 4: thresholds.benchmarks.a/*: \"2000%\" is out of range"},
		{"bad glob", "suites:\n  - name: a\n    builtin: {suite: m}\nignore: [\"a/[\"]\n", "line 4: ignore[0]: bad glob"},
		{"bad better", "suites:\n  - name: a\n    builtin: {suite: m}\nbetter: {\"a/*\": up}\n", "better.a/*: \"up\" is not one of lower, higher"},
		{"bad regexp", "suites:\n  - name: a\n    builtin: {suite: m, filter: \"(\"}\n", "suites[0].builtin.filter: bad regular expression"},
		{"list not map", "suites:\n  - name: a\n    builtin: [memory]\n", "suites[0].builtin: must be a mapping, not a list"},
		{"dup key", "suites:\n  - name: a\n    name: b\n    builtin: {suite: m}\n", "line 3: suites[0].name: key given twice"},
		{"old and new name", "suites:\n  - name: a\n    builtin: {suite: m}\nbaseline: {jobs: 3, runs: 5}\n", "line 4: baseline.runs: is the deprecated name of baseline.jobs; give baseline.jobs only"},
		{"new and old name", "suites:\n  - name: a\n    builtin: {suite: m}\nbaseline: {runs: 5, jobs: 3}\n", "line 4: baseline.runs: is the deprecated name of baseline.jobs; give baseline.jobs only"},
		{"two documents", "suites: []\n---\nsuites: []\n", "more than one YAML document"},
		{"yaml syntax", "suites: [\n", "invalid YAML"},
		{"kernel missing grid", kernel + "      block: 256\n", "suites[0].kernel.grid: a kernel suite needs grid:"},
		{"speedup_vs unknown param", kernel + "      grid: 1\n      block: 1\n      speedup_vs: {m: 1}\n", "line 9: suites[0].kernel.speedup_vs.m: is not a parameter of sweep"},
		{"speedup_vs value not swept", kernel + "      grid: 1\n      block: 1\n      speedup_vs: {n: 7}\n", "suites[0].kernel.speedup_vs.n: \"7\" is not one of the swept values 1000"},
		{"kernel bad expr", kernel + "      grid: cdiv(n 256)\n      block: 256\n", "line 7: suites[0].kernel.grid: column 8: expected \")\" or \",\""},
		{"kernel unknown param", kernel + "      grid: cdiv(m, 256)\n      block: 256\n", "line 7: suites[0].kernel.grid: cdiv(m, 256): unknown parameter \"m\" (at map[n:1000])"},
		{"kernel fractional grid", kernel + "      grid: n / 256\n      block: 256\n", "line 7: suites[0].kernel.grid: n / 256 = 3.90625 is not a whole number"},
		{"kernel big block", kernel + "      grid: 1\n      block: [64, 32]\n", "threads per block is more than 1024"},
		{"kernel arg buffer", kernel + "      grid: 1\n      block: 1\n      args: [x]\n", "suites[0].kernel.args[0]: no buffer named \"x\""},
		{"kernel bad dtype", kernel + "      grid: 1\n      block: 1\n      buffers: [{name: x, dtype: float, len: n}]\n", "suites[0].kernel.buffers[0].dtype: \"float\" is not one of fp32"},
		{"kernel int scalar", kernel + "      grid: 1\n      block: 1\n      args: [{value: n / 3, dtype: i32}]\n", "is not a whole number, but the argument is i32"},
		{"kernel option param", kernel + "      grid: 1\n      block: 1\n      options: [\"-DT=${tile}\"]\n", "uses ${tile}, which is not a sweep parameter"},
		{"kernel zero len", kernel + "      grid: 1\n      block: 1\n      buffers: [{name: x, dtype: fp32, len: n - 1000}]\n", "suites[0].kernel.buffers[0].len: n - 1000 = 0 is outside"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("c.yml", []byte(tt.yaml))
			if err == nil {
				t.Fatal("no error")
			}
			if !model.IsInputError(err) {
				t.Errorf("%v is not an InputError", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error\n  %v\ndoes not contain\n  %s", err, tt.want)
			}
		})
	}
}

func TestLoadChecksKernelSource(t *testing.T) {
	_, err := Load("testdata/missing_source.yml")
	if err == nil || !strings.Contains(err.Error(), "testdata/missing_source.yml: line 4: suites[0].kernel: kernel source nope.cu") {
		t.Errorf("error = %v", err)
	}
}

// FuzzParseConfig: Parse returns a config whose kernel cases expand, or
// an InputError. The seeds are small (testdata/full.yml is the documented
// example): an input of kilobytes that finds new coverage is minimized for
// up to a minute, and that held the worker for the whole run (3 executions
// in 60 s; issue 28, item 14).
func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{
		"version: 1\nprepare: [make]\nsuites:\n- name: a\n  command: {run: x, dir: ., format: gotest, repeat: 2, timeout: 5m, env: {K: \"2\"}}\n" +
			"- name: p\n  command: {run: y, format: pytest-benchmark, output: o.json}\n" +
			"- name: m\n  builtin: {suite: memory, size: small, dtypes: [fp32], filter: copy, fast: true, max_time: 30s}\n" +
			"thresholds: {default: 10%, alpha: 0.01, correction: bh, min_samples: 5, benchmarks: {\"a/*\": 5%}}\n" +
			"ignore: [\"a/*x\"]\nbetter: {\"m/*\": higher}\nbaseline: {branch: main, runs: 5, testbed: t}\n",
		"suites:\n- name: k\n  kernel:\n    source: k.cu\n    entry: k\n    options: [\"-DU=${u}\"]\n    sweep: {n: [1024], u: [1, 4]}\n" +
			"    buffers: [{name: x, dtype: fp32, len: n, init: random}, {name: y, dtype: fp32, len: n, output: true}]\n" +
			"    args: [x, y, {value: 2.5, dtype: fp32}, {value: n, dtype: i32}]\n    grid: cdiv(n, 256 * u)\n    block: 256\n" +
			"    bytes: 12 * n\n    flops: 2 * n\n    reference: {entry: r, tolerance: 1e-6}\n    speedup_vs: {u: 1}\n",
		"suites:\n- name: p\n  python:\n    module: k.py\n    function: f\n    reference: {function: g, tolerance: 1e-3}\n" +
			"    sweep: {n: [1024]}\n    dtypes: [fp16]\n    bytes: 3 * n * elem_bytes\n    flops: n\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("fuzz.yml", data)
		if err != nil {
			if !model.IsInputError(err) {
				t.Fatalf("error %v is not an InputError", err)
			}
			return
		}
		for _, s := range c.Suites {
			if s.Kernel != nil {
				if _, err := s.Kernel.Cases(); err != nil {
					t.Fatalf("Parse accepted a kernel whose Cases fail: %v", err)
				}
			}
			if s.Python != nil {
				if _, err := s.Python.Cases(); err != nil {
					t.Fatalf("Parse accepted a python suite whose Cases fail: %v", err)
				}
			}
		}
	})
}

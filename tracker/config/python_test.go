package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

const pySuite = "suites:\n  - name: t\n    python:\n      module: k.py\n      function: make\n"

func TestPythonCases(t *testing.T) {
	c, err := Parse("c.yml", []byte(pySuite+`      reference: {function: torch_add, tolerance: 1e-3}
      sweep: {n: [1024, 4096], rows: [2]}
      dtypes: [fp32, bf16]
      bytes: 3 * n * elem_bytes
      flops: n * rows
      timeout: 2m
      env: {SLOW: "1"}
`))
	if err != nil {
		t.Fatal(err)
	}
	p := c.Suites[0].Python
	if p.Name != "make" || p.Interpreter != "python3" || p.Reference.Name != "torch_add" || p.Reference.Tolerance != 1e-3 ||
		!reflect.DeepEqual(p.Env, []string{"SLOW=1"}) || !reflect.DeepEqual(p.Modules(), []string{"k.py"}) {
		t.Errorf("python = %+v, reference %+v", p, p.Reference)
	}
	cases, err := p.Cases()
	if err != nil {
		t.Fatal(err)
	}
	want := []PyCase{
		{map[string]string{"n": "1024", "rows": "2"}, "fp32", 3 * 1024 * 4, 2048},
		{map[string]string{"n": "1024", "rows": "2"}, "bf16", 3 * 1024 * 2, 2048},
		{map[string]string{"n": "4096", "rows": "2"}, "fp32", 3 * 4096 * 4, 8192},
		{map[string]string{"n": "4096", "rows": "2"}, "bf16", 3 * 4096 * 2, 8192},
	}
	if !reflect.DeepEqual(cases, want) {
		t.Errorf("cases =\n%+v\nwant\n%+v", cases, want)
	}
}

func TestPythonWithoutSweep(t *testing.T) {
	c, err := Parse("c.yml", []byte(pySuite+"      name: op\n      interpreter: /opt/venv/bin/python\n"))
	if err != nil {
		t.Fatal(err)
	}
	p := c.Suites[0].Python
	cases, err := p.Cases()
	if err != nil || len(cases) != 1 || cases[0].DType != "" || len(cases[0].Params) != 0 || p.Name != "op" || p.Interpreter != "/opt/venv/bin/python" {
		t.Errorf("cases %+v, %v; python %+v", cases, err, p)
	}
}

func TestPythonParseErrors(t *testing.T) {
	for _, tt := range []struct{ name, yaml, want string }{
		{"no function", "suites:\n  - name: t\n    python: {module: k.py}\n", "line 3: suites[0].python: a python suite needs module: (a .py file) and function:"},
		{"module outside", "suites:\n  - name: t\n    python: {module: ../x.py, function: f}\n", `suites[0].python.module: "../x.py": must be a .py file inside`},
		{"module not .py", "suites:\n  - name: t\n    python: {module: k.so, function: f}\n", `suites[0].python.module: "k.so": must be a .py file`},
		{"reference module outside", pySuite + "      reference: {function: g, module: /etc/x.py}\n", `suites[0].python.reference.module: "/etc/x.py"`},
		{"function not an identifier", "suites:\n  - name: t\n    python: {module: k.py, function: \"os.system\"}\n", `suites[0].python.function: "os.system": must be a Python identifier`},
		{"reference without function", pySuite + "      reference: {tolerance: 1e-3}\n", "line 6: suites[0].python.reference.function: a reference needs function:"},
		{"reference named as the suite", pySuite + "      reference: {function: g, name: make}\n", `suites[0].python.reference.name: "make" is the suite's own benchmark name`},
		{"bad dtype", pySuite + "      dtypes: [float32]\n", `line 6: suites[0].python.dtypes[0]: "float32" is not one of bf16, fp16, fp32`},
		{"dtype twice", pySuite + "      dtypes: [fp16, fp16]\n", `suites[0].python.dtypes[1]: "fp16" is listed twice`},
		{"reserved parameter", pySuite + "      sweep: {dtype: [fp16]}\n", "suites[0].python.sweep.dtype: is reserved"},
		{"bad expression", pySuite + "      bytes: 3 * (n\n", "line 6: suites[0].python.bytes: column"},
		{"unknown parameter", pySuite + "      sweep: {n: [8]}\n      bytes: 3 * m\n", "line 7: suites[0].python.bytes: 3 * m: unknown parameter \"m\" (at map[n:8])"},
		{"elem_bytes without dtypes", pySuite + "      sweep: {n: [8]}\n      flops: n * elem_bytes\n", "suites[0].python.flops: n * elem_bytes: unknown parameter \"elem_bytes\""},
		{"negative bytes", pySuite + "      sweep: {n: [8]}\n      dtypes: [fp16]\n      bytes: 0 - n\n", "suites[0].python.bytes: 0 - n = -8 is negative (at map[dtype:fp16 n:8])"},
		{"unknown key", pySuite + "      modes: [cold]\n", "line 6: suites[0].python.modes: unknown key (allowed: bytes, dtypes, env, flops, function, interpreter, module, name, reference, sweep, timeout)"},
		{"two kinds", pySuite + "    builtin: {suite: memory}\n", "a suite needs exactly one of command:, kernel:, builtin:, python:"},
		{"bad timeout", pySuite + "      timeout: soon\n", "suites[0].python.timeout: must be a positive duration"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("c.yml", []byte(tt.yaml))
			if err == nil {
				t.Fatal("no error")
			}
			if !model.IsInputError(err) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error\n  %v\ndoes not contain\n  %s (or is not an InputError)", err, tt.want)
			}
		})
	}
}

func TestLoadChecksPythonModules(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, ".perfgate.yml")
	if err := os.WriteFile(cfg, []byte(pySuite+"      reference: {function: g, module: ref.py}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "k.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(cfg)
	if err == nil || !strings.Contains(err.Error(), cfg+": line 4: suites[0].python.module: module ref.py: no such file or directory") {
		t.Fatalf("error = %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ref.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(cfg); err != nil {
		t.Fatal(err)
	}
}

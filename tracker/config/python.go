package config

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/perfgate/perfgate/tracker/model"
)

// A Python suite is a PyTorch or Triton callable timed by perfgate's
// Python harness (pyharness): a factory function of a module that, called
// with one point of the sweep (and a torch dtype), returns the callable to
// time. Bytes and FLOPs are expressions of the sweep parameters and
// elem_bytes (the size of one element of the case's dtype), evaluated here,
// so the harness receives numbers and evaluates nothing.
type Python struct {
	Module   string // path relative to Config.Dir, inside it
	Function string // the factory's name in Module
	Name     string // benchmark name prefix (default: Function)
	// Reference, when set, is a second factory whose callable computes the
	// same outputs: they are compared before timing, and it is timed too,
	// as the in-run reference of a speedup_vs_<its name> metric.
	Reference   *PyReference
	Sweep       []Param  // expanded as a cartesian product, first parameter outermost
	DTypes      []string // each case runs once per dtype; none: no dtype argument
	Bytes       *Expr    // bytes moved per call; nil = not reported
	FLOPs       *Expr    // floating-point operations per call; nil = not reported
	Interpreter string   // the Python to run (default DefaultInterpreter, found on PATH)
	Timeout     time.Duration
	Env         []string // "KEY=value", added to perfgate's environment

	line  int
	key   string
	exprs map[*Expr]string
	lines map[*Expr]int
}

// A PyReference is the reference factory of a python suite.
type PyReference struct {
	Module    string // "" = the suite's module
	Function  string
	Name      string  // benchmark name prefix (default: Function)
	Tolerance float64 // 0 = by dtype, as the kernel suites'
}

// PyDTypes are the dtypes a python suite may list, with their element sizes.
var PyDTypes = map[string]float64{"fp32": 4, "fp16": 2, "bf16": 2, "fp64": 8, "i64": 8, "i32": 4, "i16": 2, "i8": 1, "u8": 1}

// ElemBytes is the expression variable holding the size of one element of
// a python case's dtype.
const ElemBytes = "elem_bytes"

// A PyCase is one point of a python suite's sweep, at one dtype, with its
// expressions evaluated.
type PyCase struct {
	Params map[string]string // the sweep parameters (not the dtype)
	DType  string            // "" when the suite lists no dtypes
	Bytes  float64           // 0 = not reported
	FLOPs  float64           // 0 = not reported
}

func (d *decoder) python(n *yaml.Node, key string) (*Python, error) {
	p := &Python{line: n.Line, key: key, exprs: map[*Expr]string{}, lines: map[*Expr]int{}}
	expr := func(dst **Expr) handler {
		return func(v *yaml.Node, k string) error {
			s, err := d.scalar(v, k)
			if err != nil {
				return err
			}
			e, err := ParseExpr(s)
			if err != nil {
				return d.errf(v, k, "%v", err)
			}
			p.exprs[e], p.lines[e] = k, v.Line
			*dst = e
			return nil
		}
	}
	dtypes := slices.Sorted(maps.Keys(PyDTypes))
	err := d.fields(n, key, map[string]handler{
		"module":      d.str(&p.Module),
		"function":    d.str(&p.Function),
		"name":        d.str(&p.Name),
		"sweep":       func(v *yaml.Node, k string) error { return d.sweep(&p.Sweep, v, k) },
		"dtypes":      func(v *yaml.Node, k string) error { return d.pyDTypes(&p.DTypes, dtypes, v, k) },
		"bytes":       expr(&p.Bytes),
		"flops":       expr(&p.FLOPs),
		"interpreter": d.str(&p.Interpreter),
		"timeout":     d.duration(&p.Timeout),
		"env":         func(v *yaml.Node, k string) error { return d.env(&p.Env, v, k) },
		"reference": func(v *yaml.Node, k string) error {
			p.Reference = &PyReference{}
			err := d.fields(v, k, map[string]handler{
				"module":    d.str(&p.Reference.Module),
				"function":  d.str(&p.Reference.Function),
				"name":      d.str(&p.Reference.Name),
				"tolerance": d.number(&p.Reference.Tolerance),
			})
			if err == nil && p.Reference.Function == "" {
				err = d.errf(v, k+".function", "a reference needs function: (its factory in the module)")
			}
			return err
		},
	})
	if err != nil {
		return nil, err
	}
	if err := d.checkPython(p, n, key); err != nil {
		return nil, err
	}
	if _, err := p.Cases(); err != nil {
		var ke *KernelError
		if errors.As(err, &ke) {
			return nil, &model.InputError{File: d.file, Path: fmt.Sprintf("line %d: %s", ke.Line, ke.Key), Msg: ke.detail()}
		}
		return nil, err
	}
	return p, nil
}

func (d *decoder) pyDTypes(dst *[]string, allowed []string, n *yaml.Node, key string) error {
	items, err := d.list(n, key)
	for i := 0; err == nil && i < len(items); i++ {
		var s string
		err = d.oneOf(&s, allowed...)(items[i], fmt.Sprintf("%s[%d]", key, i))
		if err == nil && slices.Contains(*dst, s) {
			err = d.errf(items[i], fmt.Sprintf("%s[%d]", key, i), "%q is listed twice", s)
		}
		*dst = append(*dst, s)
	}
	return err
}

// checkPython checks what the fields cannot check alone, and sets the defaults.
func (d *decoder) checkPython(p *Python, n *yaml.Node, key string) error {
	if p.Module == "" || p.Function == "" {
		return d.errf(n, key, "a python suite needs module: (a .py file) and function: (its factory)")
	}
	for _, m := range []struct{ field, path string }{{"module", p.Module}, {"reference.module", p.refModule()}} {
		if !filepath.IsLocal(m.path) || !strings.HasSuffix(m.path, ".py") {
			return d.errf(n, key+"."+m.field, "%q: must be a .py file inside the configuration's directory (relative, no '..')", m.path)
		}
	}
	for _, f := range []struct{ field, name string }{{"function", p.Function}, {"name", p.Name}, {"reference.function", p.refField(func(r *PyReference) string { return r.Function })},
		{"reference.name", p.refField(func(r *PyReference) string { return r.Name })}} {
		if f.name != "" && !identRe.MatchString(f.name) {
			return d.errf(n, key+"."+f.field, "%q: must be a Python identifier", f.name)
		}
	}
	for _, prm := range p.Sweep {
		if prm.Name == "dtype" || prm.Name == "mode" || prm.Name == ElemBytes {
			return d.errf(n, key+".sweep."+prm.Name, "is reserved (dtypes: lists the dtypes; every benchmark runs in both modes)")
		}
	}
	if p.Name == "" {
		p.Name = p.Function
	}
	if r := p.Reference; r != nil && r.Name == "" {
		r.Name = r.Function
	}
	if r := p.Reference; r != nil && r.Name == p.Name {
		return d.errf(n, key+".reference.name", "%q is the suite's own benchmark name: give the reference a name: of its own", r.Name)
	}
	if p.Interpreter == "" {
		p.Interpreter = DefaultInterpreter
	}
	return nil
}

func (p *Python) refModule() string {
	if p.Reference == nil || p.Reference.Module == "" {
		return p.Module
	}
	return p.Reference.Module
}

func (p *Python) refField(f func(*PyReference) string) string {
	if p.Reference == nil {
		return ""
	}
	return f(p.Reference)
}

// Modules returns the module paths the suite imports, relative to Config.Dir.
func (p *Python) Modules() []string {
	if m := p.refModule(); m != p.Module {
		return []string{p.Module, m}
	}
	return []string{p.Module}
}

// Cases expands the sweep over the dtypes (dtype innermost) and evaluates
// bytes and flops at every point.
func (p *Python) Cases() ([]PyCase, error) {
	points, ok := sweepPoints(p.Sweep)
	dtypes := p.DTypes
	if len(dtypes) == 0 {
		dtypes = []string{""}
	}
	if !ok || len(points)*len(dtypes) > maxCases {
		return nil, &KernelError{Line: p.line, Key: p.key + ".sweep", Msg: fmt.Sprintf("the sweep has more than %d points", maxCases)}
	}
	var out []PyCase
	for _, pt := range points {
		for _, dt := range dtypes {
			c := PyCase{Params: pt, DType: dt}
			vars := numericParams(pt)
			if dt != "" {
				vars[ElemBytes] = PyDTypes[dt]
			}
			for _, e := range []struct {
				x   *Expr
				dst *float64
			}{{p.Bytes, &c.Bytes}, {p.FLOPs, &c.FLOPs}} {
				if e.x == nil {
					continue
				}
				v, err := e.x.Eval(vars)
				if err == nil && v < 0 {
					err = fmt.Errorf("%s = %g is negative", e.x, v)
				}
				if err != nil {
					return nil, &KernelError{Line: p.lines[e.x], Key: p.exprs[e.x], Params: caseLabel(pt, dt), Msg: err.Error()}
				}
				*e.dst = v
			}
			out = append(out, c)
		}
	}
	return out, nil
}

// caseLabel is a case's parameters with its dtype, for messages.
func caseLabel(params map[string]string, dtype string) map[string]string {
	if dtype == "" {
		return params
	}
	m := maps.Clone(params)
	m["dtype"] = dtype
	return m
}

// DefaultInterpreter is the Python a python: suite runs when it names
// none, and the one run --reference uses: python3, found on PATH.
const DefaultInterpreter = "python3"

package config

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/perfgate/perfgate/tracker/model"
)

// A Kernel suite is a user's CUDA kernel: its source, the buffers and
// arguments it takes, and its launch geometry, all as expressions of the
// parameters of a sweep. Cases evaluates them.
type Kernel struct {
	Name    string   // benchmark name prefix (default: Entry)
	Source  string   // path relative to Config.Dir
	Entry   string   // extern "C" entry point
	Options []string // NVRTC options; may use ${param}
	Sweep   []Param  // expanded as a cartesian product, first parameter outermost
	Buffers []Buffer
	Args    []Arg
	Grid    [3]*Expr
	Block   [3]*Expr
	Shared  *Expr // dynamic shared memory bytes; nil = 0
	Bytes   *Expr // bytes moved per launch; nil = not reported
	FLOPs   *Expr // floating-point operations per launch; nil = not reported
	// Reference is an optional kernel computing the same outputs, to check them.
	Reference *Reference
	// SpeedupVs picks the in-run reference variant by parameter values, e.g.
	// {UNROLL: "1"}: every other benchmark reports its speedup over the one
	// with these values and its own other parameters.
	SpeedupVs map[string]string

	line  int
	key   string           // e.g. suites[2].kernel
	exprs map[*Expr]string // each expression's key, for messages
	lines map[*Expr]int
}

// A Param is one swept parameter and its values as written.
type Param struct {
	Name   string
	Values []string
}

// A Buffer is a device buffer of Len elements.
type Buffer struct {
	Name   string
	DType  string // fp32 fp16 bf16 fp64 i32 u32 i8 u8
	Len    *Expr
	Init   string // random | range | constant | zero
	Value  float64
	Output bool // compared against the reference kernel's
}

// An Arg is a kernel argument: a buffer's device pointer, or a scalar.
type Arg struct {
	Buffer string // "" for a scalar
	DType  string // the scalar's type
	Value  *Expr
}

// A Reference kernel is run on the same inputs and its outputs compared.
type Reference struct {
	Entry     string
	Source    string // "" = the kernel's source
	Tolerance float64
}

func (k *Kernel) referenceSource() string {
	if k.Reference == nil {
		return ""
	}
	return k.Reference.Source
}

// DTypes are the element types a buffer or scalar may have.
var DTypes = []string{"fp32", "fp16", "bf16", "fp64", "i32", "u32", "i8", "u8"}

var identRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func (d *decoder) kernel(n *yaml.Node, key string) (*Kernel, error) {
	k := &Kernel{line: n.Line, key: key, exprs: map[*Expr]string{}, lines: map[*Expr]int{}}
	var speedupNode *yaml.Node // parsed once sweep is known
	var speedupKey string
	err := d.fields(n, key, map[string]handler{
		"name":       d.str(&k.Name),
		"source":     d.str(&k.Source),
		"entry":      d.str(&k.Entry),
		"options":    d.strList(&k.Options),
		"sweep":      func(v *yaml.Node, kk string) error { return d.sweep(&k.Sweep, v, kk) },
		"buffers":    func(v *yaml.Node, kk string) error { return d.buffers(k, v, kk) },
		"args":       func(v *yaml.Node, kk string) error { return d.args(k, v, kk) },
		"grid":       func(v *yaml.Node, kk string) error { return d.dims(k, &k.Grid, v, kk) },
		"block":      func(v *yaml.Node, kk string) error { return d.dims(k, &k.Block, v, kk) },
		"shared":     d.expr(k, &k.Shared),
		"bytes":      d.expr(k, &k.Bytes),
		"flops":      d.expr(k, &k.FLOPs),
		"speedup_vs": func(v *yaml.Node, kk string) error { speedupNode, speedupKey = v, kk; return nil },
		"reference": func(v *yaml.Node, kk string) error {
			k.Reference = &Reference{}
			return d.fields(v, kk, map[string]handler{
				"entry":     d.str(&k.Reference.Entry),
				"source":    d.str(&k.Reference.Source),
				"tolerance": d.number(&k.Reference.Tolerance),
			})
		},
	})
	if err != nil {
		return nil, err
	}
	if speedupNode != nil {
		if err := d.speedupVs(k, speedupNode, speedupKey); err != nil {
			return nil, err
		}
	}
	for _, req := range []struct {
		ok  bool
		key string
	}{
		{k.Source != "", "source"}, {k.Entry != "", "entry"}, {k.Grid[0] != nil, "grid"}, {k.Block[0] != nil, "block"},
		{k.Reference == nil || k.Reference.Entry != "", "reference.entry"},
	} {
		if !req.ok {
			return nil, d.errf(n, key+"."+req.key, "a kernel suite needs %s:", req.key)
		}
	}
	if _, err := k.Cases(); err != nil {
		var ke *KernelError
		if errors.As(err, &ke) {
			return nil, &model.InputError{File: d.file, Path: fmt.Sprintf("line %d: %s", ke.Line, ke.Key), Msg: ke.detail()}
		}
		return nil, err
	}
	return k, nil
}

// speedupVs parses speedup_vs: a mapping of swept parameters to one of
// their values. It runs after the other fields, so sweep may come later.
func (d *decoder) speedupVs(k *Kernel, n *yaml.Node, key string) error {
	ks, vs, err := d.pairs(n, key)
	if err != nil {
		return err
	}
	k.SpeedupVs = map[string]string{}
	for i, name := range ks {
		v, err := d.scalar(vs[i], key+"."+name.Value)
		if err != nil {
			return err
		}
		j := slices.IndexFunc(k.Sweep, func(p Param) bool { return p.Name == name.Value })
		if j < 0 {
			return d.errf(name, key+"."+name.Value, "is not a parameter of sweep")
		}
		if !slices.Contains(k.Sweep[j].Values, v) {
			return d.errf(vs[i], key+"."+name.Value, "%q is not one of the swept values %s", v, strings.Join(k.Sweep[j].Values, ", "))
		}
		k.SpeedupVs[name.Value] = v
	}
	return nil
}

// expr parses an expression; a YAML number is an expression too.
func (d *decoder) expr(k *Kernel, dst **Expr) handler {
	return func(n *yaml.Node, key string) error {
		s, err := d.scalar(n, key)
		if err != nil {
			return err
		}
		e, err := ParseExpr(s)
		if err != nil {
			return d.errf(n, key, "%v", err)
		}
		k.exprs[e], k.lines[e] = key, n.Line
		*dst = e
		return nil
	}
}

// sweep decodes a sweep: parameter names, each with a list of values.
func (d *decoder) sweep(dst *[]Param, n *yaml.Node, key string) error {
	ks, vs, err := d.pairs(n, key)
	if err != nil {
		return err
	}
	for i, name := range ks {
		if !identRe.MatchString(name.Value) || arity[name.Value] > 0 {
			return d.errf(name, key+"."+name.Value, "a parameter name must be an identifier and not a function name")
		}
		p := Param{Name: name.Value}
		if err := d.strList(&p.Values)(vs[i], key+"."+name.Value); err != nil {
			return err
		}
		if len(p.Values) == 0 {
			return d.errf(vs[i], key+"."+name.Value, "needs at least one value")
		}
		*dst = append(*dst, p)
	}
	return nil
}

func (d *decoder) buffers(k *Kernel, n *yaml.Node, key string) error {
	items, err := d.list(n, key)
	if err != nil {
		return err
	}
	for i, it := range items {
		b := Buffer{Init: "random"}
		bk := fmt.Sprintf("%s[%d]", key, i)
		err := d.fields(it, bk, map[string]handler{
			"name":   d.str(&b.Name),
			"dtype":  d.oneOf(&b.DType, DTypes...),
			"len":    d.expr(k, &b.Len),
			"init":   d.oneOf(&b.Init, "random", "range", "constant", "zero"),
			"value":  d.number(&b.Value),
			"output": d.boolean(&b.Output),
		})
		switch {
		case err != nil:
			return err
		case b.Name == "" || b.DType == "" || b.Len == nil:
			return d.errf(it, bk, "a buffer needs name:, dtype: and len:")
		case slices.ContainsFunc(k.Buffers, func(o Buffer) bool { return o.Name == b.Name }):
			return d.errf(it, bk+".name", "buffer %q is declared twice", b.Name)
		}
		k.Buffers = append(k.Buffers, b)
	}
	return nil
}

// args decodes the argument list: a buffer name, or {value: EXPR, dtype: T}.
func (d *decoder) args(k *Kernel, n *yaml.Node, key string) error {
	items, err := d.list(n, key)
	if err != nil {
		return err
	}
	for i, it := range items {
		ak := fmt.Sprintf("%s[%d]", key, i)
		var a Arg
		if it.Kind == yaml.ScalarNode {
			a.Buffer = it.Value
			if !slices.ContainsFunc(k.Buffers, func(b Buffer) bool { return b.Name == a.Buffer }) {
				return d.errf(it, ak, "no buffer named %q (declare buffers: before args:, or write {value: ..., dtype: ...} for a scalar)", a.Buffer)
			}
			k.Args = append(k.Args, a)
			continue
		}
		err := d.fields(it, ak, map[string]handler{
			"value": d.expr(k, &a.Value),
			"dtype": d.oneOf(&a.DType, DTypes...),
		})
		if err == nil && (a.Value == nil || a.DType == "") {
			err = d.errf(it, ak, "a scalar argument needs value: and dtype:")
		}
		if err != nil {
			return err
		}
		k.Args = append(k.Args, a)
	}
	return nil
}

// dims decodes a launch dimension: one expression or a list of up to three.
func (d *decoder) dims(k *Kernel, dst *[3]*Expr, n *yaml.Node, key string) error {
	if n.Kind == yaml.ScalarNode {
		return d.expr(k, &dst[0])(n, key)
	}
	items, err := d.list(n, key)
	if err == nil && (len(items) == 0 || len(items) > 3) {
		err = d.errf(n, key, "needs one to three dimensions, got %d", len(items))
	}
	for i := 0; err == nil && i < len(items); i++ {
		err = d.expr(k, &dst[i])(items[i], fmt.Sprintf("%s[%d]", key, i))
	}
	return err
}

// paramRefRe matches ${name} in options.
var paramRefRe = regexp.MustCompile(`\$\{([^}]*)\}`)

func substitute(s string, params map[string]string) (string, error) {
	var missing string
	out := paramRefRe.ReplaceAllStringFunc(s, func(m string) string {
		name := m[2 : len(m)-1]
		v, ok := params[name]
		if !ok && missing == "" {
			missing = name
		}
		return v
	})
	if missing != "" {
		return "", fmt.Errorf("%q uses ${%s}, which is not a sweep parameter", s, missing)
	}
	return out, nil
}

// numericParams returns the parameters that parse as numbers.
func numericParams(params map[string]string) map[string]float64 {
	vars := make(map[string]float64, len(params))
	for k, v := range params {
		if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
			vars[k] = f
		}
	}
	return vars
}

package config

import (
	"errors"
	"fmt"
	"math"
)

// maxCases bounds a sweep's size: a typo should not launch a million kernels.
const maxCases = 10000

// A Case is one point of a kernel sweep with every expression evaluated.
type Case struct {
	Params      map[string]string
	Options     []string // NVRTC options with ${param} substituted
	Buffers     []CaseBuffer
	Args        []CaseArg
	Grid, Block [3]uint32
	SharedBytes uint32
	Bytes       float64 // 0 = not reported
	FLOPs       float64 // 0 = not reported
}

// A CaseBuffer is a buffer with its element count evaluated.
type CaseBuffer struct {
	Name, DType string
	Len         int64
	Init        string
	Value       float64
	Output      bool
}

// A CaseArg is an argument: Buffer indexes Case.Buffers, or is -1 for a scalar.
type CaseArg struct {
	Buffer int
	DType  string
	Value  float64
}

// Cases expands the sweep and evaluates every expression at every point. A
// kernel without a sweep has one case with no parameters.
func (k *Kernel) Cases() ([]Case, error) {
	points, ok := sweepPoints(k.Sweep)
	if !ok {
		return nil, k.errf(nil, "sweep", fmt.Sprintf("the sweep has more than %d points", maxCases))
	}
	cases := make([]Case, 0, len(points))
	for _, pt := range points {
		c, err := k.evalCase(pt)
		if err != nil {
			return nil, err
		}
		cases = append(cases, c)
	}
	return cases, nil
}

// sweepPoints expands a sweep into its cartesian product, first parameter
// outermost; false when it has more than maxCases points. No sweep is one
// point with no parameters.
func sweepPoints(sweep []Param) ([]map[string]string, bool) {
	points := []map[string]string{{}}
	for _, p := range sweep {
		if len(points)*len(p.Values) > maxCases {
			return nil, false
		}
		var next []map[string]string
		for _, pt := range points {
			for _, v := range p.Values {
				m := make(map[string]string, len(pt)+1)
				for kk, vv := range pt {
					m[kk] = vv
				}
				m[p.Name] = v
				next = append(next, m)
			}
		}
		points = next
	}
	return points, true
}

// A KernelError is a problem evaluating a kernel suite's expressions.
type KernelError struct {
	Line   int
	Key    string
	Params map[string]string
	Msg    string
}

func (e *KernelError) Error() string {
	return fmt.Sprintf("line %d: %s: %s", e.Line, e.Key, e.detail())
}

func (e *KernelError) detail() string {
	if len(e.Params) > 0 {
		return fmt.Sprintf("%s (at %v)", e.Msg, e.Params)
	}
	return e.Msg
}

func (k *Kernel) errf(e *Expr, sub, msg string) error {
	line, key := k.line, k.key+"."+sub
	if e != nil {
		key, line = k.exprs[e], k.lines[e]
	}
	return &KernelError{Line: line, Key: key, Msg: msg}
}

func (k *Kernel) evalCase(params map[string]string) (Case, error) {
	c := Case{Params: params}
	vars := numericParams(params)
	wrap := func(err error) error {
		var ke *KernelError
		if errors.As(err, &ke) {
			ke.Params = params
		}
		return err
	}
	for _, o := range k.Options {
		s, err := substitute(o, params)
		if err != nil {
			return c, wrap(k.errf(nil, "options", err.Error()))
		}
		c.Options = append(c.Options, s)
	}
	for _, b := range k.Buffers {
		n, err := k.evalInt(b.Len, vars, 1, 1<<40)
		if err != nil {
			return c, wrap(err)
		}
		c.Buffers = append(c.Buffers, CaseBuffer{Name: b.Name, DType: b.DType, Len: n, Init: b.Init, Value: b.Value, Output: b.Output})
	}
	for _, a := range k.Args {
		ca, err := k.evalArg(a, vars)
		if err != nil {
			return c, wrap(err)
		}
		c.Args = append(c.Args, ca)
	}
	if err := k.evalGeometry(&c, vars); err != nil {
		return c, wrap(err)
	}
	return c, nil
}

func (k *Kernel) evalArg(a Arg, vars map[string]float64) (CaseArg, error) {
	if a.Buffer != "" {
		for i, b := range k.Buffers {
			if b.Name == a.Buffer {
				return CaseArg{Buffer: i}, nil
			}
		}
	}
	v, err := k.eval(a.Value, vars)
	if err == nil && a.DType != "fp32" && a.DType != "fp64" && a.DType != "fp16" && a.DType != "bf16" && v != math.Trunc(v) {
		err = k.errf(a.Value, "", fmt.Sprintf("%s = %g is not a whole number, but the argument is %s", a.Value, v, a.DType))
	}
	return CaseArg{Buffer: -1, DType: a.DType, Value: v}, err
}

func (k *Kernel) evalGeometry(c *Case, vars map[string]float64) error {
	for i := 0; i < 3; i++ {
		for _, dim := range []struct {
			e   *Expr
			dst *uint32
			max int64
		}{{k.Grid[i], &c.Grid[i], 1<<31 - 1}, {k.Block[i], &c.Block[i], 1024}} {
			*dim.dst = 1
			if dim.e == nil {
				continue
			}
			v, err := k.evalInt(dim.e, vars, 1, dim.max)
			if err != nil {
				return err
			}
			*dim.dst = uint32(v)
		}
	}
	if c.Block[0]*c.Block[1]*c.Block[2] > 1024 {
		return k.errf(k.Block[0], "", fmt.Sprintf("%d×%d×%d threads per block is more than 1024", c.Block[0], c.Block[1], c.Block[2]))
	}
	if k.Shared != nil {
		v, err := k.evalInt(k.Shared, vars, 0, 1<<32-1)
		if err != nil {
			return err
		}
		c.SharedBytes = uint32(v)
	}
	var err error
	if k.Bytes != nil {
		if c.Bytes, err = k.eval(k.Bytes, vars); err != nil {
			return err
		}
	}
	if k.FLOPs != nil {
		c.FLOPs, err = k.eval(k.FLOPs, vars)
	}
	return err
}

func (k *Kernel) eval(e *Expr, vars map[string]float64) (float64, error) {
	v, err := e.Eval(vars)
	if err != nil {
		return 0, k.errf(e, "", err.Error())
	}
	return v, nil
}

func (k *Kernel) evalInt(e *Expr, vars map[string]float64, lo, hi int64) (int64, error) {
	v, err := e.EvalInt(vars, lo, hi)
	if err != nil {
		return 0, k.errf(e, "", err.Error())
	}
	return v, nil
}

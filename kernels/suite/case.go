package suite

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// A Param is one named parameter of a benchmark, kept in declaration order
// so names are stable.
type Param struct{ K, V string }

// A Case is one benchmark of a built-in suite before its mode is chosen:
// a GPU kernel's case is measured in each timing (measure.Cold, measure.Batch).
type Case struct {
	Suite  string
	Op     string // the first name segment: add, copy_float4, launch_per_op, …
	DType  string
	N      int64 // elements per tensor
	Rows   int64 // rowwise: rows × Dim elements; gemm: M
	Dim    int64 // rowwise: the reduced dimension; gemm: N
	K      int64 // gemm: the inner dimension
	Params []Param
	// Ref names the Op of a reference benchmark of the same suite, params and
	// mode, and RefParams the parameters whose values differ in it: the
	// results then carry speedup_vs_<op> (its median over this one's).
	Ref       string
	RefParams map[string]string
}

// Name returns the benchmark name of c in mode, e.g. "add/dtype=fp32/n=16M/mode=cold".
func (c Case) Name(mode string) string {
	var b strings.Builder
	b.WriteString(c.Op)
	for _, p := range c.Params {
		fmt.Fprintf(&b, "/%s=%s", p.K, p.V)
	}
	fmt.Fprintf(&b, "/mode=%s", mode)
	return b.String()
}

// RefName is the name of c's reference benchmark in mode: c with Op
// replaced by Ref and the parameters in RefParams replaced by their values
// ("" when c has no reference, or is its own).
func (c Case) RefName(mode string) string {
	if c.Ref == "" && len(c.RefParams) == 0 {
		return ""
	}
	r := c
	if c.Ref != "" {
		r.Op = c.Ref
	}
	r.Params = slices.Clone(c.Params)
	for i, p := range r.Params {
		if v, ok := c.RefParams[p.K]; ok {
			r.Params[i].V = v
		}
	}
	if name := r.Name(mode); name != c.Name(mode) {
		return name
	}
	return ""
}

// ResultParams returns c's parameters as the results' params map, with exact sizes.
func (c Case) ResultParams(mode string) map[string]string {
	m := map[string]string{"mode": mode}
	for _, p := range c.Params {
		m[p.K] = p.V
	}
	if c.N > 0 {
		m["n"] = strconv.FormatInt(c.N, 10)
	}
	return m
}

// SizeLabel writes n compactly in binary units: 256, 4K, 16M, 1G.
func SizeLabel(n int64) string {
	for _, u := range []struct {
		s string
		v int64
	}{{"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}} {
		if n >= u.v && n%u.v == 0 {
			return strconv.FormatInt(n/u.v, 10) + u.s
		}
	}
	return strconv.FormatInt(n, 10)
}

// Param returns the value of c's parameter k ("" if absent).
func (c Case) Param(k string) string {
	for _, p := range c.Params {
		if p.K == k {
			return p.V
		}
	}
	return ""
}

// IntParam returns c's integer parameter k (0 if absent or malformed: the
// catalog writes every one, so that never happens for built-in cases).
func (c Case) IntParam(k string) int {
	v, _ := strconv.Atoi(c.Param(k))
	return v
}

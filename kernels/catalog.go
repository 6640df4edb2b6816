package kernels

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/perfgate/perfgate/kernels/measure"
)

// A param is one named parameter of a benchmark, kept in declaration order
// so names are stable.
type param struct{ K, V string }

// A benchCase is one benchmark of a built-in suite before its timing mode is
// chosen: each case is measured in mode=cold and mode=batch.
type benchCase struct {
	Suite  string
	Op     string // the first name segment: add, copy_float4, launch_per_op, …
	DType  string
	N      int64 // elements per tensor
	Rows   int64 // rowwise: rows × Dim elements; gemm: M
	Dim    int64 // rowwise: the reduced dimension; gemm: N
	K      int64 // gemm: the inner dimension
	Params []param
	// Ref names the Op of a reference benchmark of the same suite, params and
	// mode, and RefParams the parameters whose values differ in it: the
	// results then carry speedup_vs_<op> (its median over this one's).
	Ref       string
	RefParams map[string]string
}

// The timing modes every benchmark is measured in.
const (
	ModeCold  = "cold"
	ModeBatch = "batch"
)

var modes = []string{ModeCold, ModeBatch}

// name returns the benchmark name of c in mode, e.g. "add/dtype=fp32/n=16M/mode=cold".
func (c benchCase) name(mode string) string {
	var b strings.Builder
	b.WriteString(c.Op)
	for _, p := range c.Params {
		fmt.Fprintf(&b, "/%s=%s", p.K, p.V)
	}
	fmt.Fprintf(&b, "/mode=%s", mode)
	return b.String()
}

// refName is the name of c's reference benchmark in mode: c with Op
// replaced by Ref and the parameters in RefParams replaced by their values
// ("" when c has no reference, or is its own).
func (c benchCase) refName(mode string) string {
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
	if name := r.name(mode); name != c.name(mode) {
		return name
	}
	return ""
}

// params returns c's parameters as the results' params map, with exact sizes.
func (c benchCase) params(mode string) map[string]string {
	m := map[string]string{"mode": mode}
	for _, p := range c.Params {
		m[p.K] = p.V
	}
	if c.N > 0 {
		m["n"] = strconv.FormatInt(c.N, 10)
	}
	return m
}

// sizeLabel writes n compactly in binary units: 256, 4K, 16M, 1G.
func sizeLabel(n int64) string {
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

const (
	kb = 1 << 10
	mb = 1 << 20
)

// A suiteDef declares a built-in suite: its description and its cases for a
// size preset and the wanted dtypes.
type suiteDef struct {
	name, desc string
	cases      func(size string, dtypes []string) []benchCase
}

// Operations of the elementwise suite; the first three take two inputs.
var elementwiseOps = []string{"add", "mul", "div", "relu", "sigmoid", "gelu", "swish"}

// microbatchModes are the three ways the microbatch suite runs 10,000 adds.
var microbatchModes = []string{"launch_per_op", "cuda_graph", "persistent"}

// microbatchOps is how many adds one microbatch sample runs.
const microbatchOps = 10000

// mixedIters is how many add→mul→relu→sigmoid→div iterations one mixedops sample runs.
const mixedIters = 1000

var suites = []suiteDef{
	{"memory", "device-to-device copy ceiling: cuMemcpyDtoD and a float4 copy kernel over 1 GiB", memoryCases},
	{"elementwise", "add, mul, div, relu, sigmoid, gelu, swish in fp32/fp16/bf16; GB/s and % of the copy ceiling", elementwiseCases},
	{"microbatch", "10,000 small fp32 adds: one launch per op vs one CUDA graph vs one persistent kernel over a descriptor table", microbatchCases},
	{"mixedops", "add→mul→relu→sigmoid→div ×1000: five kernels per iteration vs one fused kernel", mixedCases},
	{"attention", "SDPA forward, fp16/bf16, causal and not: naive (3 kernels, S×S scores) vs tiled (fused, online softmax, mma.sync)", attentionCases},
	{"decode", "token-by-token attention decode over a K/V cache, L steps: per-launch vs CUDA graph vs persistent kernel", decodeCases},
	{"rowwise", "LayerNorm, RMSNorm, softmax, dropout, MSE and cross-entropy over batch×seq×dim in fp32/fp16/bf16; GB/s, % of the copy ceiling, peak memory", rowwiseCases},
	{"gemm", "C = A·B: cuBLAS (cublasGemmEx) and perfgate's own tiled kernels, fp32 (TF32 off/on), fp16, bf16; TFLOP/s and % of dense peak", gemmCases},
}

// memoryCases copy 1 GiB, or 128 MiB at SizeCI (still well past any L2,
// and the correctness read-back stays small in host memory).
func memoryCases(size string, _ []string) []benchCase {
	n := int64(1 << 28)
	if size == SizeCI {
		n = 1 << 25
	}
	var cs []benchCase
	for _, op := range []string{"memcpy_dtod", "copy_float4"} {
		cs = append(cs, benchCase{Suite: "memory", Op: op, DType: "fp32", N: n,
			Params: []param{{"bytes", sizeLabel(4 * n)}}})
	}
	return cs
}

var elementwiseSizes = map[string][]int64{
	SizeCI:     {4 * kb, 16 * mb},
	SizeSmall:  {4 * kb, 1 * mb, 16 * mb},
	SizeMedium: {256, 4 * kb, 64 * kb, 1 * mb, 16 * mb, 64 * mb},
	SizeLarge:  {256, 1 * kb, 4 * kb, 16 * kb, 64 * kb, 256 * kb, 1 * mb, 4 * mb, 16 * mb, 64 * mb, 256 * mb},
}

func elementwiseCases(size string, dtypes []string) []benchCase {
	var cs []benchCase
	for _, op := range elementwiseOps {
		for _, dt := range DTypes {
			if !slices.Contains(dtypes, dt) {
				continue
			}
			for _, n := range elementwiseSizes[size] {
				cs = append(cs, benchCase{Suite: "elementwise", Op: op, DType: dt, N: n,
					Params: []param{{"dtype", dt}, {"n", sizeLabel(n)}}})
			}
		}
	}
	return cs
}

var microbatchSizes = map[string][]int64{
	SizeCI:     {4 * kb},
	SizeSmall:  {256, 4 * kb},
	SizeMedium: {256, 1 * kb, 2 * kb, 4 * kb, 16 * kb},
	SizeLarge:  {256, 1 * kb, 2 * kb, 4 * kb, 16 * kb},
}

func microbatchCases(size string, dtypes []string) []benchCase {
	if !slices.Contains(dtypes, "fp32") {
		return nil
	}
	var cs []benchCase
	for _, n := range microbatchSizes[size] {
		for _, m := range microbatchModes {
			cs = append(cs, benchCase{Suite: "microbatch", Op: m, DType: "fp32", N: n,
				Params: []param{{"n", sizeLabel(n)}, {"ops", strconv.Itoa(microbatchOps)}}})
		}
	}
	return cs
}

var mixedSizes = map[string][]int64{
	SizeCI:     {64 * kb},
	SizeSmall:  {64 * kb},
	SizeMedium: {4 * kb, 64 * kb, 1 * mb},
	SizeLarge:  {4 * kb, 64 * kb, 1 * mb, 16 * mb},
}

func mixedCases(size string, dtypes []string) []benchCase {
	if !slices.Contains(dtypes, "fp32") {
		return nil
	}
	var cs []benchCase
	for _, n := range mixedSizes[size] {
		for _, v := range []string{"unfused", "fused"} {
			cs = append(cs, benchCase{Suite: "mixedops", Op: v, DType: "fp32", N: n,
				Params: []param{{"n", sizeLabel(n)}, {"iters", strconv.Itoa(mixedIters)}}})
		}
	}
	return cs
}

// suiteModes gives, for suites not measured in cold and batch mode, the
// modes of each case.
var suiteModes = map[string]func(benchCase) []string{}

func findSuite(name string) (suiteDef, bool) {
	for _, s := range suites {
		if s.name == name {
			return s, true
		}
	}
	return suiteDef{}, false
}

// An UnknownSuiteError names a suite perfgate does not have.
type UnknownSuiteError struct{ Name string }

func (e *UnknownSuiteError) Error() string {
	return fmt.Sprintf("unknown suite %q (built-in suites: %s)", e.Name, strings.Join(SuiteNames(), ", "))
}

// defaultSuites are the suites perfgate run runs when none is named: the
// single-process GPU kernel suites. cmdpath (host command-path
// microbenchmarks) and sharing (several processes, MPS) run only when named.
var defaultSuites = []string{"memory", "elementwise", "microbatch", "mixedops", "attention", "decode"}

// DefaultSuites returns the names of the built-in suites run when none is
// named, in catalog order.
func DefaultSuites() []string {
	var out []string
	for _, s := range suites {
		if slices.Contains(defaultSuites, s.name) {
			out = append(out, s.name)
		}
	}
	return out
}

// SuiteNames returns the names of the built-in suites.
func SuiteNames() []string {
	names := make([]string, len(suites))
	for i, s := range suites {
		names[i] = s.name
	}
	return names
}

// OpNames returns the operations of the built-in suites (first name
// segments), in suite order, each once.
func OpNames() []string {
	var out []string
	for _, s := range suites {
		for _, size := range Sizes {
			for _, c := range s.cases(size, DTypes) {
				if !slices.Contains(out, c.Op) {
					out = append(out, c.Op)
				}
			}
		}
	}
	return out
}

// ListFor describes the built-in suites as o selects them (size, dtypes, filter).
func ListFor(o Options) []SuiteInfo {
	var out []SuiteInfo
	for _, s := range suites {
		info := SuiteInfo{Name: s.name, Description: s.desc}
		for _, sel := range selectCases(s, o) {
			info.Benchmarks = append(info.Benchmarks, sel.c.name(sel.mode))
		}
		out = append(out, info)
	}
	return out
}

// A selected case is a case and one of its modes that o's filter keeps.
type selected struct {
	c    benchCase
	mode string
}

// selectCases returns the cases of s (with their modes) that o selects.
func selectCases(s suiteDef, o Options) []selected {
	size := o.Size
	if size == "" {
		size = SizeMedium
	}
	dtypes := o.DTypes
	if len(dtypes) == 0 {
		dtypes = DTypes
	}
	var out []selected
	for _, c := range s.cases(size, dtypes) {
		if len(o.Ops) > 0 && !slices.Contains(o.Ops, c.Op) {
			continue
		}
		ms := modes
		if f := suiteModes[s.name]; f != nil {
			ms = f(c)
		}
		for _, m := range ms {
			if o.Filter == nil || o.Filter.MatchString(s.name+"/"+c.name(m)) {
				out = append(out, selected{c, m})
			}
		}
	}
	return out
}

// An OptionError names the Options field that is invalid.
type OptionError struct {
	Option string // "size", "dtype" or "max-time"
	Msg    string
}

func (e *OptionError) Error() string { return e.Option + ": " + e.Msg }

// ValidateOptions checks o's size, dtypes and time cap.
func ValidateOptions(o Options) error {
	if o.Size != "" && !slices.Contains(Sizes, o.Size) {
		return &OptionError{"size", fmt.Sprintf("%q is not one of %s", o.Size, strings.Join(Sizes, ", "))}
	}
	for _, d := range o.DTypes {
		if !slices.Contains(DTypes, d) {
			return &OptionError{"dtype", fmt.Sprintf("%q is not one of %s", d, strings.Join(DTypes, ", "))}
		}
	}
	for _, op := range o.Ops {
		if all := OpNames(); !slices.Contains(all, op) {
			return &OptionError{"op", fmt.Sprintf("%q is not an operation of a built-in suite (%s)", op, strings.Join(all, ", "))}
		}
	}
	if o.MaxTime < 0 {
		return &OptionError{"max-time", fmt.Sprintf("%v is negative", o.MaxTime)}
	}
	if _, err := measure.NewPacer(o.Pace); err != nil {
		return &OptionError{"pace", err.Error()}
	}
	return nil
}

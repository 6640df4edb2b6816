// Package torchref owns perfgate run --reference torch's mapping: which
// PyTorch computation is the reference of each built-in benchmark (none
// for some), how its arm is named and measured, the spec the Python
// harness (pyharness/perfgate_harness/torchref.py) runs, and how the arms'
// medians become speedup_vs_<metric> on the built-in benchmarks.
//
// It reads built-in benchmark names as kernels writes them
// (op/k=v/…/mode=m) and imports only tracker/model and stdlib: the runner
// runs the harness and passes the names and results in.
package torchref

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// An Arm is one PyTorch reference computation, measured as a benchmark of
// its own in the built-in benchmark's suite.
type Arm struct {
	// Metric names the speedup on the built-in benchmark:
	// speedup_vs_<Metric>. torch is PyTorch's default way (eager, SDPA),
	// and the others begin torch_ (torch_graph, torch_compile,
	// torch_flash_attn2), so that speedup_vs_torch* is every in-run
	// PyTorch reference (perfgate summary --speedups torch).
	Metric string
	// Op is the first segment of the arm's benchmark names: "torch." and
	// the PyTorch function (torch.add, torch.sdpa) or, for the launch-bound
	// suites, the way the loop runs (torch.eager, torch.graph,
	// torch.compile). The dot keeps them apart from every built-in op.
	Op string
	// Factory and Check are functions of torchref.py: the callable to
	// time, and its expected output's (compared, never timed; "": none).
	Factory, Check string
	// Args are the factory's arguments that are not in the names.
	Args map[string]string
	// Stream times the callable as stream launches, never captured into
	// a graph: the arm is about launches (a Python loop, a graph it
	// replays itself), as the Go harness keeps launch_per_op as launches.
	Stream bool
	// Ops is how many operations one call makes (samples are µs per op,
	// as the built-in benchmark's are); Launches the kernels it queues.
	Ops, Launches int
	// Tolerance overrides the by-dtype tolerance of the check (0: none).
	Tolerance float64
	// FlashAttn is set for arms that need the flash_attn package.
	FlashAttn bool
}

// A Ref is an Arm applied to one built-in case: its parameters are the
// built-in benchmark's (mode and dtype apart).
type Ref struct {
	Suite  string
	Arm    Arm
	Params map[string]string
	DType  string
}

// Name returns the arm's benchmark name in mode, as the Python harness
// writes it (results.benchmark_name): op, the parameters and dtype in key
// order, the mode.
func (r Ref) Name(mode string) string {
	p := maps.Clone(r.Params)
	if r.DType != "" {
		p["dtype"] = r.DType
	}
	parts := []string{r.Arm.Op}
	for _, k := range slices.Sorted(maps.Keys(p)) {
		parts = append(parts, k+"="+p[k])
	}
	return strings.Join(append(parts, "mode="+mode), "/")
}

// key identifies the case an arm measures, whichever built-in benchmarks
// share it (naive and tiled attention share one SDPA case).
func (r Ref) key() string { return r.Suite + "/" + r.Name("") }

// A parsed is a built-in benchmark name taken apart.
type parsed struct {
	op, mode string
	params   map[string]string
}

// parseName takes op/k=v/…/mode=m apart.
func parseName(name string) (parsed, error) {
	segs := strings.Split(name, "/")
	p := parsed{op: segs[0], params: map[string]string{}}
	for _, s := range segs[1:] {
		k, v, ok := strings.Cut(s, "=")
		if !ok {
			return p, fmt.Errorf("benchmark name %q: segment %q is not key=value", name, s)
		}
		if k == "mode" {
			p.mode = v
			continue
		}
		p.params[k] = v
	}
	if p.mode == "" {
		return p, fmt.Errorf("benchmark name %q has no mode", name)
	}
	return p, nil
}

// For returns the PyTorch references of the built-in benchmark suite/name
// and its mode, none when it has no PyTorch equivalent.
func For(suite, name string) ([]Ref, string, error) {
	p, err := parseName(name)
	if err != nil {
		return nil, "", err
	}
	m, ok := mappings[suite]
	if !ok {
		return nil, p.mode, nil
	}
	dtype := p.params["dtype"]
	params := maps.Clone(p.params)
	delete(params, "dtype")
	var out []Ref
	for _, a := range m(p.op, dtype, params) {
		out = append(out, Ref{Suite: suite, Arm: a, Params: params, DType: dtype})
	}
	return out, p.mode, nil
}

// mappings give, by suite, the arms of a built-in case (op, dtype, the
// other parameters). A suite absent here (memory: the copy ceiling is the
// device's, not an op's; cmdpath, sharing: the host's and the scheduler's)
// has none.
var mappings = map[string]func(op, dtype string, p map[string]string) []Arm{
	"elementwise": elementwiseArms,
	"rowwise":     rowwiseArms,
	"gemm":        gemmArms,
	"attention":   attentionArms,
	"decode":      decodeArms,
	"microbatch":  microbatchArms,
	"mixedops":    mixedArms,
}

// elementwiseTorch are the PyTorch functions of the elementwise ops
// (swish is SiLU; gelu the tanh form, F.gelu(approximate="tanh")).
var elementwiseTorch = map[string]string{"add": "add", "mul": "mul", "div": "div", "relu": "relu",
	"sigmoid": "sigmoid", "gelu": "gelu", "swish": "silu"}

func elementwiseArms(op, _ string, _ map[string]string) []Arm {
	fn, ok := elementwiseTorch[op]
	if !ok {
		return nil
	}
	return []Arm{{Metric: "torch", Op: "torch." + fn, Factory: "elementwise", Check: "elementwise_expected",
		Args: map[string]string{"op": op}, Ops: 1, Launches: 1}}
}

// rowwiseTorch are the torch.nn.functional functions of the rowwise ops.
var rowwiseTorch = map[string]string{"layernorm": "layer_norm", "rmsnorm": "rms_norm", "softmax": "softmax",
	"dropout": "dropout", "mse": "mse_loss", "cross_entropy": "cross_entropy"}

func rowwiseArms(op, dtype string, _ map[string]string) []Arm {
	fn, ok := rowwiseTorch[op]
	if !ok {
		return nil
	}
	a := Arm{Metric: "torch", Op: "torch." + fn, Factory: "rowwise", Check: "rowwise_expected",
		Args: map[string]string{"op": op}, Ops: 1, Launches: 1}
	switch {
	case op == "dropout":
		a.Check = "" // PyTorch's Philox stream is not perfgate's: no element-wise comparison is possible
	case dtype == "fp32" && (op == "layernorm" || op == "rmsnorm"):
		a.Tolerance = 1e-4 // a normalised output near zero: fp32 rounding of the mean and scale
	}
	return []Arm{a}
}

// gemmTolerance is the check's tolerance by dtype (and TF32): sums of K
// products of operands in [-1, 1) in the output type, against float64.
func gemmTolerance(dtype, tf32 string) float64 {
	switch {
	case tf32 == "on":
		return 5e-2
	case dtype == "fp32":
		return 1e-3
	case dtype == "fp16":
		return 1e-2
	}
	return 3e-2
}

func gemmArms(op, dtype string, p map[string]string) []Arm {
	if op != "cublas" && op != "tiled" {
		return nil
	}
	return []Arm{{Metric: "torch", Op: "torch.matmul", Factory: "gemm", Check: "gemm_expected", Ops: 1, Launches: 1,
		Tolerance: gemmTolerance(dtype, p["tf32"])}}
}

// attnTolerance is the attention check's tolerance: probabilities rounded
// to the input type before P·V.
func attnTolerance(dtype string) float64 {
	if dtype == "bf16" {
		return 3e-2
	}
	return 5e-3
}

func attentionArms(op, dtype string, _ map[string]string) []Arm {
	if op != "naive" && op != "tiled" {
		return nil
	}
	tol := attnTolerance(dtype)
	return []Arm{
		{Metric: "torch", Op: "torch.sdpa", Factory: "sdpa", Check: "attention_expected", Ops: 1, Launches: 1, Tolerance: tol},
		{Metric: "torch_flash_attn2", Op: "torch.flash_attn2", Factory: "flash_attn2", Check: "attention_expected", Ops: 1, Launches: 1,
			Tolerance: tol, FlashAttn: true},
	}
}

// loopArms are the three ways PyTorch runs a loop of ops small enough
// that launching them is the cost: eager (the Python loop), graph (the
// loop captured once into a torch.cuda.CUDAGraph, replayed) and compile
// (torch.compile of one iteration), with the launches one call of each
// queues.
func loopArms(factory, check string, ops, eager, compiled int, tol float64) []Arm {
	arm := func(metric, variant string, launches int) Arm {
		return Arm{Metric: metric, Op: "torch." + variant, Factory: factory, Check: check,
			Args: map[string]string{"variant": variant}, Stream: true, Ops: ops, Launches: launches, Tolerance: tol}
	}
	return []Arm{arm("torch", "eager", eager), arm("torch_graph", "graph", 1), arm("torch_compile", "compile", compiled)}
}

// decodeTolerance allows for L dependent steps, each output rounded to
// the input type and fed into the next query.
func decodeTolerance(dtype string) float64 {
	if dtype == "bf16" {
		return 5e-2
	}
	return 2e-2
}

func decodeArms(op, dtype string, p map[string]string) []Arm {
	l, err := strconv.Atoi(p["l"])
	if err != nil || l <= 0 || !slices.Contains([]string{"per_launch", "cuda_graph", "persistent"}, op) {
		return nil
	}
	// a step: the query's add, SDPA, the copy into O
	return loopArms("decode", "decode_expected", l, 3*l, 2*l, decodeTolerance(dtype))
}

func microbatchArms(op, _ string, p map[string]string) []Arm {
	ops, err := strconv.Atoi(p["ops"])
	if err != nil || ops <= 0 || !slices.Contains([]string{"launch_per_op", "cuda_graph", "persistent"}, op) {
		return nil
	}
	return loopArms("microbatch", "microbatch_expected", ops, ops, ops, 0)
}

func mixedArms(op, _ string, p map[string]string) []Arm {
	iters, err := strconv.Atoi(p["iters"])
	if err != nil || iters <= 0 || (op != "unfused" && op != "fused") {
		return nil
	}
	// mixedops' own check: |got − want| ≤ 1e-5 + 1e-4·|want| after 1000 iterations in fp32
	return loopArms("mixedops", "mixedops_expected", iters, 5*iters+1, iters+1, 1e-4)
}

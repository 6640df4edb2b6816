package kernels

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/perfgate/perfgate/kernels/cmdpath"
	"github.com/perfgate/perfgate/kernels/measure"
	"github.com/perfgate/perfgate/kernels/sharing"
	"github.com/perfgate/perfgate/kernels/suite"
	"github.com/perfgate/perfgate/tracker/model"
)

// A builtin is a built-in suite: its declaration and how it runs on the
// GPU. A suite of GPU kernels sets each case up with prepare and the
// session times it (measure, device.Timer); one that does not fit
// prepare-then-time (cmdpath: host and GPU command paths; sharing: several
// processes) runs whole with run.
type builtin struct {
	suite.Def
	prepare preparer
	run     func(s *Session, ctx context.Context, o Options) ([]model.Benchmark, error)
}

// suites are the built-in suites, in catalog order: the one place a suite
// is registered. Each GPU kernel suite's files share its name: its cases and
// CPU reference (NAME.go, NAME_reference.go), its setup on the GPU (on the
// device seam, NAME_setup.go, tested on devicetest's fake; not yet on it,
// NAME_cuda.go) and its CUDA C (cu/NAME.cu); microbatch.go holds mixedops
// too, elementwise*.go the memory suite. cmdpath and sharing are packages of
// their own.
var suites = []builtin{
	{Def: suite.Def{Name: "memory", Desc: "device-to-device copy ceiling: cuMemcpyDtoD and a float4 copy kernel over 1 GiB",
		Cases: memoryCases}, prepare: prepareMemory},
	{Def: suite.Def{Name: "elementwise", Desc: "add, mul, div, relu, sigmoid, gelu, swish in fp32/fp16/bf16; GB/s and % of the copy ceiling",
		Cases: elementwiseCases}, prepare: prepareElementwise},
	{Def: suite.Def{Name: "microbatch", Desc: "10,000 small fp32 adds: one launch per op vs one CUDA graph vs one persistent kernel over a descriptor table",
		Cases: microbatchCases}, prepare: prepareMicrobatch},
	{Def: suite.Def{Name: "mixedops", Desc: "add→mul→relu→sigmoid→div ×1000: five kernels per iteration vs one fused kernel",
		Cases: mixedCases}, prepare: prepareMixed},
	{Def: suite.Def{Name: "attention", Desc: "SDPA forward, fp16/bf16, causal and not: naive (3 kernels, S×S scores) vs tiled (fused, online softmax, mma.sync)",
		Cases: attentionCases}, prepare: prepareAttention},
	{Def: suite.Def{Name: "decode", Desc: "token-by-token attention decode over a K/V cache, L steps: per-launch vs CUDA graph vs persistent kernel",
		Cases: decodeCases}, prepare: prepareDecode},
	{Def: suite.Def{Name: "rowwise", Desc: "LayerNorm, RMSNorm, softmax, dropout, MSE and cross-entropy over batch×seq×dim in fp32/fp16/bf16; GB/s, % of the copy ceiling, peak memory",
		Cases: rowwiseCases}, prepare: prepareRowwise},
	{Def: suite.Def{Name: "gemm", Desc: "C = A·B: cuBLAS (cublasGemmEx) and perfgate's own tiled kernels, fp32 (TF32 off/on), fp16, bf16; TFLOP/s and % of dense peak",
		Cases: gemmCases}, prepare: prepareGemm},
	{Def: cmdpath.Suite, run: runCmdpath},
	{Def: sharing.Suite, run: runSharing},
}

// runSharing runs the sharing suite: its workers are processes of their
// own, each with its own session.
func runSharing(_ *Session, ctx context.Context, o Options) ([]model.Benchmark, error) {
	return sharing.Run(ctx, o)
}

// findSuite returns the built-in suite called name.
func findSuite(name string) (builtin, bool) {
	for _, s := range suites {
		if s.Name == name {
			return s, true
		}
	}
	return builtin{}, false
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
		if slices.Contains(defaultSuites, s.Name) {
			out = append(out, s.Name)
		}
	}
	return out
}

// SuiteNames returns the names of the built-in suites.
func SuiteNames() []string {
	names := make([]string, len(suites))
	for i, s := range suites {
		names[i] = s.Name
	}
	return names
}

// OpNames returns the operations of the built-in suites (first name
// segments), in suite order, each once.
func OpNames() []string {
	var out []string
	for _, s := range suites {
		for _, size := range Sizes {
			for _, c := range s.Cases(size, DTypes) {
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
		info := SuiteInfo{Name: s.Name, Description: s.Desc}
		for _, sel := range suite.Select(s.Def, o) {
			info.Benchmarks = append(info.Benchmarks, sel.Case.Name(sel.Mode))
		}
		out = append(out, info)
	}
	return out
}

// ValidateOptions checks o's size, dtypes and time cap.
func ValidateOptions(o Options) error {
	if o.Size != "" && !slices.Contains(Sizes, o.Size) {
		return &OptionError{Option: "size", Msg: fmt.Sprintf("%q is not one of %s", o.Size, strings.Join(Sizes, ", "))}
	}
	for _, d := range o.DTypes {
		if !slices.Contains(DTypes, d) {
			return &OptionError{Option: "dtype", Msg: fmt.Sprintf("%q is not one of %s", d, strings.Join(DTypes, ", "))}
		}
	}
	for _, op := range o.Ops {
		if all := OpNames(); !slices.Contains(all, op) {
			return &OptionError{Option: "op", Msg: fmt.Sprintf("%q is not an operation of a built-in suite (%s)", op, strings.Join(all, ", "))}
		}
	}
	if o.MaxTime < 0 {
		return &OptionError{Option: "max-time", Msg: fmt.Sprintf("%v is negative", o.MaxTime)}
	}
	if _, err := measure.NewPacer(o.Pace); err != nil {
		return &OptionError{Option: "pace", Msg: err.Error()}
	}
	return nil
}

package kernels

import (
	"regexp"
	"time"

	"github.com/perfgate/perfgate/kernels/measure"
)

// Options selects and tunes what a suite run measures.
type Options struct {
	// Filter keeps only benchmarks whose "suite/name" matches (nil: all).
	Filter *regexp.Regexp
	// Ops keeps only benchmarks whose operation (the first name segment:
	// layernorm, cublas, add, …) is one of these (nil: all).
	Ops []string
	// Size is a size preset: small, medium (default) or large.
	Size string
	// Fast lowers every time budget for smoke runs (numbers are noisier).
	Fast bool
	// DTypes keeps only these element types (nil: all the suite has).
	DTypes []string
	// MaxTime caps the time spent measuring one benchmark (0: 15 s; 1 s with
	// Fast; 5 s at SizeCI, where MaxSamples stops first).
	MaxTime time.Duration
	// Pace spaces samples so sustained work stays under the GPU's power
	// limit: PaceAuto ("" too) idles only once NVML reports a throttled
	// sample, PaceOff never, a number is a fixed idle ratio (pacer).
	Pace string
	// Progress, when set, receives one line per benchmark as it finishes.
	Progress func(line string)
	// CacheDir holds compiled PTX ("": the user cache directory + /perfgate).
	CacheDir string
	// Worker is the command line that starts one worker process of perfgate
	// itself (the sharing suite); the workload's flags are appended.
	Worker []string
	// MPSControl is the nvidia-cuda-mps-control to run ("": from PATH).
	MPSControl string
	// Unchanged maps "suite/name" to the baseline's ptx_sha256: a benchmark
	// whose kernels compile to the same hash is not measured (SkipUnchanged).
	Unchanged map[string]string
}

// The size presets. SizeCI is the pull-request check's preset: few sizes
// (one launch-bound, one bandwidth-bound per operation) and per-benchmark
// budgets bounded by samples (rulesFor), so the default PR run of every
// built-in suite, three rounds included, takes a few minutes (docs/action.md).
const (
	SizeCI     = "ci"
	SizeSmall  = "small"
	SizeMedium = "medium"
	SizeLarge  = "large"
)

// Sizes lists the valid values of Options.Size.
var Sizes = []string{SizeSmall, SizeMedium, SizeLarge, SizeCI}

// DTypes lists the element types of the built-in suites.
var DTypes = []string{"fp32", "fp16", "bf16"}

// SuiteInfo describes a built-in suite for --list.
type SuiteInfo struct {
	Name, Description string
	// Benchmarks are the benchmark names, with parameters, at the default size.
	Benchmarks []string
}

// UserKernel is a user's CUDA kernel declared in .perfgate.yml, with every
// expression already evaluated (by tracker/config).
type UserKernel struct {
	Suite, Name string   // benchmark names are Name + "/" + params
	File        string   // source path, for messages
	Source      string   // CUDA C source (extern "C" entry points)
	Entry       string   // the kernel to time
	Options     []string // NVRTC options, e.g. "-DTILE=16"
	Cases       []UserCase
	// SpeedupVs names the reference variant: each benchmark names, as its
	// in-run reference, the benchmark whose parameters are its own with
	// these replaced (AddRefSpeedups then sets speedup_vs_<Name>).
	SpeedupVs map[string]string
}

// UserCase is one sweep point of a UserKernel.
type UserCase struct {
	Params       map[string]string
	Buffers      []UserBuffer // device buffers
	Args         []UserArg    // kernel arguments in order
	Grid, Block  [3]uint32
	SharedBytes  uint32
	Bytes, FLOPs float64        // per launch; 0 = not reported (metrics gbps / tflops)
	Reference    *UserReference // optional: a reference kernel run on the same inputs; outputs compared
}

// UserBuffer is a device buffer of a UserCase.
type UserBuffer struct {
	Name   string
	DType  string // fp32 fp16 bf16 fp64 i32 u32 i8 u8
	Len    int64
	Init   string // random|range|constant|zero
	Value  float64
	Output bool
}

// UserArg is one kernel argument: a buffer, or a scalar when Buffer is -1.
type UserArg struct {
	Buffer int // index into Buffers, or -1 for a scalar
	DType  string
	Value  float64
}

// UserReference names a reference kernel whose outputs the timed kernel's
// outputs must match.
type UserReference struct {
	Entry     string
	Source    string  // "" = same source
	Tolerance float64 // 0 = by dtype
}

// rulesFor returns the measuring loop's stop rule for o.
func rulesFor(o Options) measure.Rule {
	return measure.RuleFor(measure.Budget{CI: o.Size == SizeCI, Fast: o.Fast, MaxTime: o.MaxTime, Pace: o.Pace})
}

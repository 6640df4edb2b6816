package suite

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
	// itself (the sharing suite); the workload's spec is appended.
	Worker []string
	// MPSControl is the nvidia-cuda-mps-control to run ("": from PATH).
	MPSControl string
	// Unchanged maps "suite/name" to the baseline's ptx_sha256: a benchmark
	// whose kernels compile to the same hash is not measured (kernels.SkipUnchanged).
	Unchanged map[string]string
}

// The size presets. SizeCI is the pull-request check's preset: few sizes
// (one launch-bound, one bandwidth-bound per operation) and per-benchmark
// budgets bounded by samples (RulesFor), so the default PR run of every
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

// An OptionError names the Options field that is invalid.
type OptionError struct {
	Option string // "size", "dtype" or "max-time"
	Msg    string
}

func (e *OptionError) Error() string { return e.Option + ": " + e.Msg }

// RulesFor returns the measuring loop's stop rule for o.
func RulesFor(o Options) measure.Rule {
	return measure.RuleFor(measure.Budget{CI: o.Size == SizeCI, Fast: o.Fast, MaxTime: o.MaxTime, Pace: o.Pace})
}

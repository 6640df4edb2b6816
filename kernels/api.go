package kernels

import (
	"github.com/perfgate/perfgate/kernels/cmdpath"
	"github.com/perfgate/perfgate/kernels/measure"
	"github.com/perfgate/perfgate/kernels/sharing"
	"github.com/perfgate/perfgate/kernels/suite"
	"github.com/perfgate/perfgate/tracker/model"
)

// Options selects and tunes what a suite run measures (suite.Options).
type Options = suite.Options

// The size presets (suite.SizeCI …).
const (
	SizeCI     = suite.SizeCI
	SizeSmall  = suite.SizeSmall
	SizeMedium = suite.SizeMedium
	SizeLarge  = suite.SizeLarge
)

// Sizes lists the valid values of Options.Size.
var Sizes = suite.Sizes

// DTypes lists the element types of the built-in suites.
var DTypes = suite.DTypes

// An OptionError names the Options field that is invalid (suite.OptionError).
type OptionError = suite.OptionError

// SharingWork is what one worker process of the sharing suite runs
// (sharing.Work).
type SharingWork = sharing.Work

// The timings a GPU kernel is measured in, as values of its mode= parameter
// (measure.Cold, measure.Batch).
const (
	ModeCold  = measure.Cold
	ModeBatch = measure.Batch
)

// ModeHost is the mode of a benchmark that runs on the host alone, needing
// no GPU (cmdpath.OnHost).
const ModeHost = cmdpath.OnHost

// AddRefSpeedups sets speedup_vs_<op> on every benchmark of bs that names
// a reference present in bs (suite.AddRefSpeedups): a caller that runs user
// kernels separately calls it on all of a suite's benchmarks.
func AddRefSpeedups(bs []model.Benchmark) { suite.AddRefSpeedups(bs) }

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

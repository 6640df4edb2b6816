// Package pyspec is the spec the Python harness runs
// (pyharness/perfgate_harness/runspec.py documents its keys): one type for
// a python: suite of .perfgate.yml (package runner) and for the PyTorch
// references of the built-in suites (package torchref). A key left out
// takes runspec.py's default: graph capture on, one op and one launch a
// call, no tolerance, no reference, no check.
package pyspec

// A Spec is one suite's or arm's spec: the factory to call (Module,
// Function, Args), what its output is checked against (Reference, timed as
// well, or Check, only compared), how it is timed, and its cases.
type Spec struct {
	Suite     string            `json:"suite"`
	Name      string            `json:"name"`
	Module    string            `json:"module"`
	Function  string            `json:"function"`
	Args      map[string]string `json:"args,omitempty"`
	Reference *Func             `json:"reference,omitempty"`
	Check     *Func             `json:"check,omitempty"`
	Tolerance float64           `json:"tolerance,omitempty"`
	Graph     bool              `json:"graph"`
	Modes     []string          `json:"modes"`
	Size      string            `json:"size"`
	Fast      bool              `json:"fast"`
	MaxTimeNS int64             `json:"max_time_ns"`
	Pace      string            `json:"pace"`
	Cases     []Case            `json:"cases"`
}

// A Func names a function of a module; a reference's also has the op name
// its benchmarks take.
type Func struct {
	Name     string `json:"name,omitempty"`
	Module   string `json:"module"`
	Function string `json:"function"`
}

// A Case is one case of a Spec: its parameters and dtype, the bytes and
// FLOPs of one call (for GB/s and TFLOP/s), the ops and launches one call
// makes, and the tolerance of its check when it is not the Spec's (0 bytes
// or FLOPs: not known).
type Case struct {
	Params    map[string]string `json:"params"`
	DType     string            `json:"dtype,omitempty"`
	Bytes     float64           `json:"bytes"`
	FLOPs     float64           `json:"flops"`
	Ops       int               `json:"ops,omitempty"`
	Launches  int               `json:"launches,omitempty"`
	Tolerance float64           `json:"tolerance,omitempty"`
}

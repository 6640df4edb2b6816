package torchref

import (
	"fmt"
	"maps"
	"slices"
)

// A Spec is one arm's spec for the Python harness (runspec.py documents
// the keys): the factory of torchref.py, its expected output's, and the
// cases, each a built-in case's parameters.
type Spec struct {
	Suite     string            `json:"suite"`
	Name      string            `json:"name"`
	Module    string            `json:"module"`
	Function  string            `json:"function"`
	Args      map[string]string `json:"args,omitempty"`
	Check     *Func             `json:"check,omitempty"`
	Graph     bool              `json:"graph"`
	Modes     []string          `json:"modes"`
	Size      string            `json:"size"`
	Fast      bool              `json:"fast"`
	MaxTimeNS int64             `json:"max_time_ns"`
	Pace      string            `json:"pace"`
	Cases     []Case            `json:"cases"`
}

// A Func names a function of a module.
type Func struct {
	Module   string `json:"module"`
	Function string `json:"function"`
}

// A Case is one case of a Spec.
type Case struct {
	Params    map[string]string `json:"params"`
	DType     string            `json:"dtype,omitempty"`
	Ops       int               `json:"ops"`
	Launches  int               `json:"launches"`
	Tolerance float64           `json:"tolerance,omitempty"`
}

// A File is what one harness process runs: the specs of one suite.
type File struct {
	Specs []Spec `json:"specs"`
}

// Budget is how the arms are measured: the built-in run's size preset and
// budgets, so both sides follow the same stop rules.
type Budget struct {
	Size    string
	Fast    bool
	MaxTime int64 // ns, 0: the default
	Pace    string
}

// Plan returns, for each suite of names (suite → built-in benchmark names,
// as run --list gives them), the file of specs that measures their
// references, in suite order, each arm's cases in the order of the first
// benchmark that needs them; the modes are the built-in benchmarks'.
// module is torchref.py's path; flashAttn says whether the flash_attn
// package imports (without it, its arms are left out).
func Plan(suites []string, names map[string][]string, module string, flashAttn bool, b Budget) (map[string]File, error) {
	out := map[string]File{}
	for _, suite := range suites {
		var specs []Spec
		index := map[string]int{} // arm spec key → specs index
		seen := map[string]bool{} // case keys
		for _, name := range names[suite] {
			refs, mode, err := For(suite, name)
			if err != nil {
				return nil, err
			}
			for _, r := range refs {
				if r.Arm.FlashAttn && !flashAttn {
					continue
				}
				sk := r.Arm.Op + "\x00" + fmt.Sprint(r.Arm.Args)
				i, ok := index[sk]
				if !ok {
					i = len(specs)
					index[sk] = i
					specs = append(specs, newSpec(suite, r.Arm, module, b))
				}
				if !slices.Contains(specs[i].Modes, mode) {
					specs[i].Modes = append(specs[i].Modes, mode)
				}
				if seen[r.key()] {
					continue
				}
				seen[r.key()] = true
				specs[i].Cases = append(specs[i].Cases, Case{Params: maps.Clone(r.Params), DType: r.DType,
					Ops: r.Arm.Ops, Launches: r.Arm.Launches, Tolerance: r.Arm.Tolerance})
			}
		}
		if len(specs) > 0 {
			out[suite] = File{Specs: specs}
		}
	}
	return out, nil
}

func newSpec(suite string, a Arm, module string, b Budget) Spec {
	s := Spec{Suite: suite, Name: a.Op, Module: module, Function: a.Factory, Args: a.Args, Graph: !a.Stream,
		Size: b.Size, Fast: b.Fast, MaxTimeNS: b.MaxTime, Pace: b.Pace}
	if a.Check != "" {
		s.Check = &Func{Module: module, Function: a.Check}
	}
	return s
}

// Names returns the arm benchmark names a File measures, in the harness's
// order (case by case, each in its spec's modes): what --list prints.
func (f File) Names() []string {
	var out []string
	for _, s := range f.Specs {
		for _, c := range s.Cases {
			r := Ref{Arm: Arm{Op: s.Name}, Params: c.Params, DType: c.DType}
			for _, m := range s.Modes {
				out = append(out, r.Name(m))
			}
		}
	}
	return out
}

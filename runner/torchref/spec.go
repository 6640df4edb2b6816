package torchref

import (
	"fmt"
	"maps"
	"slices"

	"github.com/perfgate/perfgate/runner/pyspec"
)

// A File is what one harness process runs: the specs of one suite.
type File struct {
	Specs []pyspec.Spec `json:"specs"`
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
		var specs []pyspec.Spec
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
				specs[i].Cases = append(specs[i].Cases, pyspec.Case{Params: maps.Clone(r.Params), DType: r.DType,
					Ops: r.Arm.Ops, Launches: r.Arm.Launches, Tolerance: r.Arm.Tolerance})
			}
		}
		if len(specs) > 0 {
			out[suite] = File{Specs: specs}
		}
	}
	return out, nil
}

func newSpec(suite string, a Arm, module string, b Budget) pyspec.Spec {
	s := pyspec.Spec{Suite: suite, Name: a.Op, Module: module, Function: a.Factory, Args: a.Args, Graph: !a.Stream,
		Size: b.Size, Fast: b.Fast, MaxTimeNS: b.MaxTime, Pace: b.Pace}
	if a.Check != "" {
		s.Check = &pyspec.Func{Module: module, Function: a.Check}
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

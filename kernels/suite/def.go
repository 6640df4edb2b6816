package suite

import (
	"context"
	"slices"

	"github.com/perfgate/perfgate/kernels/measure"
	"github.com/perfgate/perfgate/tracker/model"
)

// A Def declares a built-in suite: its name, its description, its cases for
// a size preset and the wanted dtypes, the modes each case is measured in
// (nil: the timings measure.Cold and measure.Batch), and how the mode=host
// benchmarks among its selected cases run, which need no GPU (nil: it has
// none).
type Def struct {
	Name, Desc string
	Cases      func(size string, dtypes []string) []Case
	Modes      func(Case) []string
	RunHost    func(ctx context.Context, sel []Selected, o Options) ([]model.Benchmark, error)
}

// A Selected is a case and one of its modes that o's filter keeps.
type Selected struct {
	Case Case
	Mode string
}

// Select returns the cases of s (with their modes) that o selects.
func Select(s Def, o Options) []Selected {
	size := o.Size
	if size == "" {
		size = SizeMedium
	}
	dtypes := o.DTypes
	if len(dtypes) == 0 {
		dtypes = DTypes
	}
	var out []Selected
	for _, c := range s.Cases(size, dtypes) {
		if len(o.Ops) > 0 && !slices.Contains(o.Ops, c.Op) {
			continue
		}
		ms := Timings
		if s.Modes != nil {
			ms = s.Modes(c)
		}
		for _, m := range ms {
			if o.Filter == nil || o.Filter.MatchString(s.Name+"/"+c.Name(m)) {
				out = append(out, Selected{c, m})
			}
		}
	}
	return out
}

// Timings are the modes of a GPU kernel's case, in the order it is measured
// in them.
var Timings = []string{measure.Cold, measure.Batch}

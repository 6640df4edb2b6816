package trend

import (
	"github.com/perfgate/perfgate/tracker/model"
)

// A Change is one step of one series: what `trend --changes` lists.
type Change struct {
	Suite  string       `json:"suite"`
	Name   string       `json:"name"`
	Unit   string       `json:"unit"`
	Better model.Better `json:"better"`
	Step
}

// Changes lists the steps of every series, newest first (by the start of
// the step's run), then by suite and name.
func Changes(series []Series) []Change {
	var out []Change
	for _, s := range series {
		for _, st := range s.Steps {
			out = append(out, Change{Suite: s.Suite, Name: s.Name, Unit: s.Unit, Better: s.Better, Step: st})
		}
	}
	// Stable over the input's suite/name order: newest step first.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Run.StartedAt.After(out[j-1].Run.StartedAt); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

package trend

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/perfgate/perfgate/internal/safetext"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/units"
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

// ChangesTable writes one row per change point.
func ChangesTable(w io.Writer, cs []Change) error {
	if len(cs) == 0 {
		_, err := fmt.Fprintln(w, "no change points")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "started\tcommit\trun\tbenchmark\tbefore\tafter\tchange\tkind\tp")
	for _, c := range cs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s/%s\t%s\t%s\t%+.1f%%\t%s\t%.2g\n", c.Run.StartedAt.UTC().Format(timeLayout),
			model.ShortSHA(c.Run.Commit), shortID(c.Run.ID), c.Suite, c.Name, units.Format(c.Before, c.Unit), units.Format(c.After, c.Unit),
			100*c.Change, c.Kind, c.P)
	}
	return tw.Flush()
}

// ChangesCSV writes one row per change point, text from the results
// defused as CSV writes it.
func ChangesCSV(w io.Writer, cs []Change) error {
	cw := safetext.NewWriter(w)
	cw.Write([]string{"suite", "name", "unit", "better", "started_at", "commit", "run_id", "index",
		"before", "after", "change", "kind", "p"})
	cell := safetext.Cell // text from the results files
	for _, c := range cs {
		cw.Write([]string{cell(c.Suite), cell(c.Name), cell(c.Unit), cell(string(c.Better)), c.Run.StartedAt.UTC().Format(time.RFC3339),
			cell(c.Run.Commit), cell(c.Run.ID), strconv.Itoa(c.Index), fnum(c.Before), fnum(c.After), fnum(c.Change), c.Kind, fnum(c.P)})
	}
	cw.Flush()
	return cw.Error()
}

// ChangesJSON writes {"changes": [...]}.
func ChangesJSON(w io.Writer, cs []Change) error {
	if cs == nil {
		cs = []Change{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Changes []Change `json:"changes"`
	}{cs})
}

func fnum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

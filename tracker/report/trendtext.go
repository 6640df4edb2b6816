package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/perfgate/perfgate/internal/safetext"
	"github.com/perfgate/perfgate/internal/textcol"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/trend"
	"github.com/perfgate/perfgate/tracker/units"
)

// stepAtIndex maps a point index to the step starting there.
func stepAtIndex(s trend.Series) map[int]trend.Step {
	m := map[int]trend.Step{}
	for _, st := range s.Steps {
		m[st.Index] = st
	}
	return m
}

const timeLayout = "2006-01-02 15:04Z"

// TrendTable writes `perfgate trend`'s table: one block per series: its points, one row per run, oldest
// first, with the step changes marked where they start and listed after.
func TrendTable(w io.Writer, series []trend.Series) error {
	if len(series) == 0 {
		_, err := fmt.Fprintln(w, "no runs match")
		return err
	}
	for i, s := range series {
		if i > 0 {
			fmt.Fprintln(w)
		}
		spread := "run-to-run spread unknown (fewer than 3 runs)"
		if s.Spread != nil {
			spread = fmt.Sprintf("runs move ±%.1f%%", 100**s.Spread)
		}
		fmt.Fprintf(w, "%s/%s (%s, %s is better): %d run(s), %d step change(s), %s\n",
			s.Suite, s.Name, s.Unit, s.Better, len(s.Points), len(s.Steps), spread)
		rows := make([][]string, 0, len(s.Points)+1)
		rows = append(rows, []string{"started", "commit", "run", "median", "cv", "n", "step"})
		steps := stepAtIndex(s)
		cells := make([]string, 7*len(s.Points))
		var b []byte
		for j, p := range s.Points {
			mark := ""
			if st, ok := steps[j]; ok {
				mark = fmt.Sprintf("%+.1f%% %s", 100*st.Change, st.Kind)
			}
			b = p.Run.StartedAt.UTC().AppendFormat(b[:0], timeLayout)
			row := cells[7*j : 7*j+7 : 7*j+7]
			row[0] = string(b)
			row[1], row[2], row[3] = model.ShortSHA(p.Run.Commit), shortID(p.Run.ID), units.Format(p.Median, s.Unit)
			b = append(strconv.AppendFloat(b[:0], 100*p.CV, 'f', 2, 64), '%') // fmt's %.2f%%
			row[4], row[5], row[6] = string(b), strconv.Itoa(p.N), mark
			rows = append(rows, row)
		}
		if err := textcol.Write(w, rows, textcol.Format{Align: textcol.Right}); err != nil {
			return err
		}
		for _, st := range s.Steps {
			fmt.Fprintf(w, "step: %s at %s (commit %s, run %s): median %s → %s, %+.1f%%\n", st.Kind,
				st.Run.StartedAt.UTC().Format(timeLayout), model.ShortSHA(st.Run.Commit), shortID(st.Run.ID),
				units.Format(st.Before, s.Unit), units.Format(st.After, s.Unit), 100*st.Change)
		}
		for _, r := range s.Resets {
			fmt.Fprintf(w, "baseline reset at %s by %s (%s): earlier runs feed no baseline\n", r.At.UTC().Format(timeLayout),
				safetext.NoBidi(r.Who), safetext.NoBidi(r.Reason))
		}
	}
	return nil
}

// TrendCSV writes one row per point; step_change holds the step's change
// (positive = worse) on the first point after a step, and is empty
// elsewhere. Text from the results is defused (safetext.Cell) and quoted
// where it holds a separator of any dialect.
func TrendCSV(w io.Writer, series []trend.Series) error {
	cw := safetext.NewWriter(w)
	cw.Write([]string{"suite", "name", "unit", "better", "started_at", "commit", "run_id", "branch", "testbed",
		"median", "cv", "n", "step_change"})
	for _, s := range series {
		steps := stepAtIndex(s)
		for j, p := range s.Points {
			change := ""
			if st, ok := steps[j]; ok {
				change = strconv.FormatFloat(st.Change, 'g', -1, 64)
			}
			cell := safetext.Cell // text from the results files
			cw.Write([]string{cell(s.Suite), cell(s.Name), cell(s.Unit), cell(string(s.Better)), p.Run.StartedAt.UTC().Format(time.RFC3339),
				cell(p.Run.Commit), cell(p.Run.ID), cell(p.Run.Branch), cell(p.Run.Testbed), strconv.FormatFloat(p.Median, 'g', -1, 64),
				strconv.FormatFloat(p.CV, 'g', -1, 64), strconv.Itoa(p.N), change})
		}
	}
	cw.Flush()
	return cw.Error()
}

// TrendJSON writes {"series": [...]}, each series with its points and steps.
func TrendJSON(w io.Writer, series []trend.Series) error {
	if series == nil {
		series = []trend.Series{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Series []trend.Series `json:"series"`
	}{series})
}

// shortID returns the first 8 characters of a run ID (a UUID): enough to
// tell a history's runs apart and find one in the JSON or CSV output, which
// keep the whole ID.
func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// ChangesTable writes one row per change point.
func ChangesTable(w io.Writer, cs []trend.Change) error {
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
func ChangesCSV(w io.Writer, cs []trend.Change) error {
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
func ChangesJSON(w io.Writer, cs []trend.Change) error {
	if cs == nil {
		cs = []trend.Change{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Changes []trend.Change `json:"changes"`
	}{cs})
}

func fnum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

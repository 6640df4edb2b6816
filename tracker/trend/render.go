package trend

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/perfgate/perfgate/internal/safetext"
	"github.com/perfgate/perfgate/internal/textcol"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/stats"
	"github.com/perfgate/perfgate/tracker/units"
)

// A Series is one benchmark's trend with the steps found in it and its
// run-to-run spread.
type Series struct {
	model.TrendSeries
	Steps []Step `json:"steps"`
	// Spread is how much the benchmark moves between runs: a robust
	// standard deviation of the log medians of successive runs, as a
	// fraction (nil with fewer than three runs; see RunSpread).
	Spread *float64 `json:"run_spread"`
	// Resets are the re-baseline points that cover the benchmark
	// (MarkResets): runs before one feed no baseline, shown all the same.
	Resets []model.Reset `json:"resets,omitempty"`
}

// A ResetSource lists re-baseline points; both stores are one.
type ResetSource interface {
	Resets(ctx context.Context) ([]model.Reset, error)
}

// ReadResets returns src's re-baseline points, none when it keeps none.
func ReadResets(ctx context.Context, src any) ([]model.Reset, error) {
	if rs, ok := src.(ResetSource); ok {
		return rs.Resets(ctx)
	}
	return nil, nil
}

// ReadWithResets is Read, and src's re-baseline points (ReadResets).
func ReadWithResets(ctx context.Context, src Source, q model.TrendQuery) ([]model.TrendSeries, []model.Reset, error) {
	series, err := Read(ctx, src, q)
	if err != nil {
		return nil, nil, err
	}
	resets, err := ReadResets(ctx, src)
	return series, resets, err
}

// MarkResets gives each series the resets (perfgate baseline reset) of
// repo ("" = any) whose glob matches its benchmark.
func MarkResets(series []Series, resets []model.Reset, repo string) {
	for i := range series {
		key := model.Key{Suite: series[i].Suite, Name: series[i].Name}.String()
		for _, r := range resets {
			if (r.Repo == "" || repo == "" || r.Repo == repo) && model.MatchGlob(r.Glob, key) {
				series[i].Resets = append(series[i].Resets, r)
			}
		}
	}
}

// RunSpread returns a robust run-to-run spread of points: 1.4826 times the
// median absolute difference of successive log medians, over √2. Being
// built on successive differences, a step change moves one difference and
// barely moves the estimate; an outlier run moves two. NaN with fewer than
// three points with a positive median.
func RunSpread(points []model.TrendPoint) float64 {
	var d []float64
	prev := math.NaN()
	for _, p := range points {
		if !(p.Median > 0) {
			continue
		}
		l := math.Log(p.Median)
		if !math.IsNaN(prev) {
			d = append(d, math.Abs(l-prev))
		}
		prev = l
	}
	if len(d) < 2 {
		return math.NaN()
	}
	slices.Sort(d)
	return math.Expm1(1.4826 * stats.Quantile(d, 0.5) / math.Sqrt2)
}

// Analyze finds the steps of every series.
func Analyze(series []model.TrendSeries, o Options) []Series {
	out := make([]Series, len(series))
	for i, se := range series {
		out[i] = Series{TrendSeries: se, Steps: Steps(se, o)}
		if sp := RunSpread(se.Points); !math.IsNaN(sp) {
			out[i].Spread = &sp
		}
		if out[i].Steps == nil {
			out[i].Steps = []Step{}
		}
		if out[i].Points == nil {
			out[i].Points = []model.TrendPoint{}
		}
	}
	return out
}

// stepAtIndex maps a point index to the step starting there.
func stepAtIndex(s Series) map[int]Step {
	m := map[int]Step{}
	for _, st := range s.Steps {
		m[st.Index] = st
	}
	return m
}

const timeLayout = "2006-01-02 15:04Z"

// Table writes one block per series: its points, one row per run, oldest
// first, with the step changes marked where they start and listed after.
func Table(w io.Writer, series []Series) error {
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

// CSV writes one row per point; step_change holds the step's change
// (positive = worse) on the first point after a step, and is empty
// elsewhere. Text from the results is defused (safetext.Cell) and quoted
// where it holds a separator of any dialect.
func CSV(w io.Writer, series []Series) error {
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

// JSON writes {"series": [...]}, each series with its points and steps.
func JSON(w io.Writer, series []Series) error {
	if series == nil {
		series = []Series{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Series []Series `json:"series"`
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

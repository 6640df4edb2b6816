package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/perfgate/perfgate/internal/textcol"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/stats"
	"github.com/perfgate/perfgate/tracker/units"
)

// distColumns are the descriptive statistics shown per side of a benchmark.
var distColumns = []string{"n", "mean", "median", "std", "min", "p95", "p99", "max"}

// appendDistCells appends one side's statistics in unit; a side without
// samples is a dash.
func appendDistCells(cells []string, s stats.Summary, unit string) []string {
	if s.N == 0 {
		return append(cells, "0", "—", "—", "—", "—", "—", "—", "—")
	}
	cells = append(cells, strconv.Itoa(s.N))
	for _, v := range []float64{s.Mean, s.Median, s.Std, s.Min, s.P95, s.P99, s.Max} {
		cells = append(cells, value(v, unit))
	}
	return cells
}

// withSamples returns the results that have raw samples on either side
// (summary-only inputs have none: their values are other tools' medians).
func withSamples(c *compare.Comparison) []*compare.Result {
	var out []*compare.Result
	for i := range c.Results {
		if r := &c.Results[i]; !r.SummaryOnly && (r.Baseline.N > 0 || r.Candidate.N > 0) {
			out = append(out, r)
		}
	}
	return out
}

// writeDistributions writes the collapsed table of each benchmark's
// descriptive statistics, baseline and candidate, from the pooled samples.
func writeDistributions(b *strings.Builder, c *compare.Comparison) {
	rs := withSamples(c)
	if len(rs) == 0 {
		return
	}
	fmt.Fprintf(b, "<details><summary>Distributions (%d)</summary>\n\n", len(rs))
	// A comment is 780 px wide: the Markdown leaves out the mean, min and
	// p95 (the text and JSON reports have them), and says the unit once a
	// row, so the table fits.
	b.WriteString("| benchmark | side | n | unit | median | std | p99 | max |\n|:--|:--|--:|:--|--:|--:|--:|--:|\n")
	for _, r := range rs {
		factor, unit := units.Scale(r.Baseline.Median, r.Unit)
		if r.Baseline.N == 0 {
			factor, unit = units.Scale(r.Candidate.Median, r.Unit)
		}
		for _, side := range []struct {
			name string
			s    stats.Summary
		}{{"baseline", r.Baseline}, {"candidate", r.Candidate}} {
			cells := []string{fmt.Sprint(side.s.N), md(unit)}
			for _, v := range []float64{side.s.Median, side.s.Std, side.s.P99, side.s.Max} {
				if side.s.N == 0 {
					cells = append(cells, "—")
					continue
				}
				cells = append(cells, sig(v*factor))
			}
			fmt.Fprintf(b, "| %s | %s | %s |\n", mdCode(r.Suite+"/"+r.Name), side.name, strings.Join(cells, " | "))
		}
	}
	b.WriteString("\n</details>\n\n")
}

// writeTextDistributions writes the same statistics as a terminal table,
// after a blank line; nothing when no result has samples.
func writeTextDistributions(b *strings.Builder, c *compare.Comparison) {
	rs := withSamples(c)
	if len(rs) == 0 {
		return
	}
	const width = 2 + 8 // benchmark, side, distColumns
	rows := make([][]string, 0, 1+2*len(rs))
	rows = append(rows, append([]string{"benchmark", "side"}, distColumns...))
	cells := make([]string, 0, 2*width*len(rs))
	for _, r := range rs {
		cells = appendDistCells(append(cells, plain(r.Suite+"/"+r.Name), "baseline"), r.Baseline, r.Unit)
		cells = appendDistCells(append(cells, "", "candidate"), r.Candidate, r.Unit)
		rows = append(rows, cells[len(cells)-2*width:len(cells)-width:len(cells)-width], cells[len(cells)-width:])
	}
	b.WriteString("\ndistributions:\n")
	// Every cell a column, left-aligned, each line's trailing spaces
	// dropped: what tabwriter (flags 0, each cell ending in a tab) and
	// strings.TrimRight of each line printed.
	textcol.Write(b, rows, textcol.Format{Align: textcol.Left, Trim: true})
}

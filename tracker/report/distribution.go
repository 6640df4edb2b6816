package report

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/stats"
	"github.com/perfgate/perfgate/tracker/units"
)

// distColumns are the descriptive statistics shown per side of a benchmark.
const distColumns = "n\tmean\tmedian\tstd\tmin\tp95\tp99\tmax"

// distCells renders one side's statistics in unit, tab-separated; a side
// without samples is a dash.
func distCells(s stats.Summary, unit string) string {
	if s.N == 0 {
		return "0\t—\t—\t—\t—\t—\t—\t—"
	}
	cells := []string{fmt.Sprint(s.N)}
	for _, v := range []float64{s.Mean, s.Median, s.Std, s.Min, s.P95, s.P99, s.Max} {
		cells = append(cells, value(v, unit))
	}
	return strings.Join(cells, "\t")
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

// textDistributions renders the same statistics as a terminal table.
func textDistributions(c *compare.Comparison) string {
	rs := withSamples(c)
	if len(rs) == 0 {
		return ""
	}
	var tb strings.Builder
	tw := tabwriter.NewWriter(&tb, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "benchmark\tside\t%s\t\n", distColumns)
	for _, r := range rs {
		fmt.Fprintf(tw, "%s\tbaseline\t%s\t\n", plain(r.Suite+"/"+r.Name), distCells(r.Baseline, r.Unit))
		fmt.Fprintf(tw, "\tcandidate\t%s\t\n", distCells(r.Candidate, r.Unit))
	}
	tw.Flush()
	var b strings.Builder
	b.WriteString("distributions:\n")
	for _, line := range strings.Split(strings.TrimSuffix(tb.String(), "\n"), "\n") {
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	return b.String()
}

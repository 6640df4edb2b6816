package report

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/perfgate/perfgate/internal/safetext"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/stats"
)

// RunCSV writes one row per benchmark of runs: the run, the benchmark, its
// sample statistics (in the benchmark's unit) and its derived figures
// (speedup over its in-run reference with the category, throughput,
// GB/s, TFLOP/s, peak memory, % of copy and of peak); empty where absent.
// User text is defused as in CSV.
func RunCSV(w io.Writer, runs []*model.Results) error {
	cw := safetext.NewWriter(w)
	cw.Write([]string{"run", "suite", "name", "unit", "n", "mean", "median", "std", "p95", "p99", "min", "max",
		"speedup", "speedup_vs", "category", "throughput_per_s", "gbps", "tflops", "peak_mem_mb", "pct_of_copy", "pct_of_peak", "error"})
	for _, r := range runs {
		for _, b := range r.Benchmarks {
			d := stats.Describe(b.Samples)
			row := []string{cell(r.Run.ID), cell(b.Suite), cell(b.Name), cell(b.Unit), strconv.Itoa(d.N)}
			if d.N > 0 {
				for _, v := range []float64{d.Mean, d.Median, d.Std, d.P95, d.P99, d.Min, d.Max} {
					row = append(row, csvNum(v))
				}
			} else {
				row = append(row, "", "", "", "", "", "", "")
			}
			refs, vals := speedups(b.Metrics)
			if len(refs) > 0 {
				row = append(row, csvNum(vals[0]), cell(refs[0]), compare.SpeedupCategory(vals[0]))
			} else {
				row = append(row, "", "", "")
			}
			row = append(row, csvNum(throughput(b.Metrics)))
			for _, k := range []string{"gbps", "tflops", "peak_mem_mb", "pct_of_copy", "pct_of_peak"} {
				row = append(row, csvNum(metric(k)(b.Metrics)))
			}
			cw.Write(append(row, cell(plain(b.Error))))
		}
	}
	cw.Flush()
	return cw.Error()
}

// throughput is the most specific rate metric a benchmark has (NaN: none).
func throughput(m map[string]float64) float64 {
	for _, r := range rates {
		if v := metric(r.key)(m); finite(v) {
			return v
		}
	}
	return math.NaN()
}

// RunLaTeX writes runs as booktabs tables, one per run: benchmark, median,
// the derived figures some benchmark of the run has, and the speedup over
// the in-run reference with its category. User text is escaped.
func RunLaTeX(w io.Writer, runs []*model.Results) error {
	var b strings.Builder
	for _, r := range runs {
		var cols []figure
		for _, f := range figures {
			for _, bm := range r.Benchmarks {
				if bm.Error == "" && f.Cell(bm.Metrics) != "" {
					cols = append(cols, f)
					break
				}
			}
		}
		fmt.Fprintf(&b, "%% perfgate run %s: commit %s on %s, testbed %s\n", latexText(r.Run.ID), latexText(r.Run.Commit),
			latexText(r.Run.Branch), latexText(r.Run.Testbed))
		fmt.Fprintf(&b, "\\begin{tabular}{lr%s}\n\\toprule\nBenchmark & Median", strings.Repeat("r", len(cols)))
		for _, c := range cols {
			b.WriteString(" & " + latexText(c.Head))
		}
		b.WriteString(" \\\\\n\\midrule\n")
		for _, bm := range r.Benchmarks {
			med := "error"
			if bm.Error == "" && len(bm.Samples) > 0 {
				med = value(stats.Describe(bm.Samples).Median, bm.Unit)
			}
			b.WriteString(latexText(bm.Suite+"/"+bm.Name) + " & " + latexText(med))
			for _, c := range cols {
				b.WriteString(" & " + latexText(c.Cell(bm.Metrics)))
			}
			b.WriteString(" \\\\\n")
		}
		b.WriteString("\\bottomrule\n\\end{tabular}\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// SummaryFormats are the output formats of a run summary (perfgate summary --format).
var SummaryFormats = []string{FormatMarkdown, FormatCSV, FormatLaTeX}

// WriteRunSummary writes runs in format: the Markdown RunSummary, RunCSV or RunLaTeX.
func WriteRunSummary(w io.Writer, runs []*model.Results, format string) error {
	switch format {
	case FormatCSV:
		return RunCSV(w, runs)
	case FormatLaTeX:
		return RunLaTeX(w, runs)
	case FormatMarkdown:
		_, err := io.WriteString(w, RunSummary(runs))
		return err
	}
	return fmt.Errorf("format %q: must be one of %s", format, strings.Join(SummaryFormats, ", "))
}

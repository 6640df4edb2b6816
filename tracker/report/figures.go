package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
)

// A figure is one derived column of a run's report, read from a
// benchmark's metrics: what the seeds' per-run reports show beside the
// times (speedup with its category, throughput, GB/s, TFLOP/s, peak memory,
// efficiency). Cell returns "" when the benchmark does not have it, Plain
// the number for CSV (NaN when absent).
type figure struct {
	Head  string
	Cell  func(m map[string]float64) string
	Plain func(m map[string]float64) float64
}

var figures = []figure{
	{"speedup", speedupCell, nil},
	{"throughput", throughputCell, nil},
	{"GB/s", fixedCell("gbps", "%.1f"), metric("gbps")},
	{"TFLOP/s", fixedCell("tflops", "%.2f"), metric("tflops")},
	{"peak memory", fixedCell("peak_mem_mb", "%.1f MB"), metric("peak_mem_mb")},
	{"efficiency", efficiencyCell, nil},
}

func metric(key string) func(map[string]float64) float64 {
	return func(m map[string]float64) float64 {
		if v, ok := m[key]; ok && finite(v) {
			return v
		}
		return math.NaN()
	}
}

func fixedCell(key, format string) func(map[string]float64) string {
	return func(m map[string]float64) string {
		if v := metric(key)(m); finite(v) {
			return fmt.Sprintf(format, v)
		}
		return ""
	}
}

// speedups returns a benchmark's speedup_vs_* metrics by reference, in key order.
func speedups(m map[string]float64) (refs []string, vals []float64) {
	for k, v := range m {
		if ref, ok := strings.CutPrefix(k, "speedup_vs_"); ok && finite(v) && v > 0 {
			refs = append(refs, ref)
		}
	}
	slices.Sort(refs)
	for _, r := range refs {
		vals = append(vals, m["speedup_vs_"+r])
	}
	return refs, vals
}

func speedupCell(m map[string]float64) string {
	refs, vals := speedups(m)
	parts := make([]string, len(refs))
	for i, r := range refs {
		parts[i] = fmt.Sprintf("%.2f× vs %s (%s)", vals[i], r, compare.SpeedupCategory(vals[i]))
	}
	return strings.Join(parts, "; ")
}

// rates are the throughput metrics, the most specific first.
var rates = []struct{ key, unit string }{{"tokens_per_s", "tokens/s"}, {"queries_per_s", "queries/s"}, {"ops_per_s", "ops/s"}}

func throughputCell(m map[string]float64) string {
	for _, r := range rates {
		if v := metric(r.key)(m); finite(v) {
			return siRate(v) + " " + r.unit
		}
	}
	return ""
}

// siRate writes a rate with an SI prefix: 1.23 M, 456 k.
func siRate(v float64) string {
	for _, p := range []struct {
		s string
		f float64
	}{{"T", 1e12}, {"G", 1e9}, {"M", 1e6}, {"k", 1e3}} {
		if math.Abs(v) >= p.f {
			return fmt.Sprintf("%.3g %s", v/p.f, p.s)
		}
	}
	return fmt.Sprintf("%.3g", v)
}

func efficiencyCell(m map[string]float64) string {
	var parts []string
	if v := metric("pct_of_copy")(m); finite(v) {
		parts = append(parts, fmt.Sprintf("%.1f%% of copy", v))
	}
	if v := metric("pct_of_peak")(m); finite(v) {
		parts = append(parts, fmt.Sprintf("%.1f%% of peak", v))
	}
	return strings.Join(parts, "; ")
}

// writeFigures writes the derived figures of a suite's benchmarks: only the
// columns some benchmark has, only the benchmarks that have one; nothing
// when none has any.
func writeFigures(b *strings.Builder, bms []model.Benchmark) {
	var cols []figure
	for _, f := range figures {
		if slices.ContainsFunc(bms, func(bm model.Benchmark) bool { return bm.Error == "" && f.Cell(bm.Metrics) != "" }) {
			cols = append(cols, f)
		}
	}
	if len(cols) == 0 {
		return
	}
	b.WriteString("| benchmark |")
	for _, c := range cols {
		b.WriteString(" " + c.Head + " |")
	}
	b.WriteString("\n|:--|" + strings.Repeat("--:|", len(cols)) + "\n")
	for _, bm := range bms {
		if bm.Error != "" {
			continue
		}
		cells := make([]string, len(cols))
		any := false
		for i, c := range cols {
			cells[i] = c.Cell(bm.Metrics)
			any = any || cells[i] != ""
		}
		if !any {
			continue
		}
		fmt.Fprintf(b, "| %s |", mdCode(bm.Name))
		for _, c := range cells {
			b.WriteString(" " + unbreakable.Replace(md(c)) + " |")
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
}

package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/stats"
)

// RunSummary renders runs as a SUMMARY.md: per run, what ran where (the
// suites, the run's metadata and its environment), then one table per
// suite with each benchmark's sample statistics: n, mean, median,
// standard deviation, p95, p99 (linear interpolation, R type 7), min and
// max. A benchmark that failed shows its error. Below it, the derived
// figures the benchmarks' metrics hold (figures.go): speedups over in-run
// references with their categories, throughput, GB/s, TFLOP/s, peak memory
// and efficiency. All user text is escaped.
func RunSummary(runs []*model.Results) string {
	var b strings.Builder
	b.WriteString("# perfgate run summary\n\n")
	for _, r := range runs {
		writeRunSummary(&b, r)
	}
	return b.String()
}

func writeRunSummary(b *strings.Builder, r *model.Results) {
	var suites []string
	for _, bm := range r.Benchmarks {
		if !slices.Contains(suites, bm.Suite) {
			suites = append(suites, bm.Suite)
		}
	}
	fmt.Fprintf(b, "## Run %s\n\n", mdCode(r.Run.ID))
	fmt.Fprintf(b, "- commit %s on %s (%s), testbed %s, started %s\n", mdCode(r.Run.Commit), mdCode(r.Run.Branch),
		md(r.Run.Event), mdCode(r.Run.Testbed), r.Run.StartedAt.UTC().Format("2006-01-02 15:04:05Z"))
	quoted := make([]string, len(suites))
	for i, s := range suites {
		quoted[i] = mdCode(s)
	}
	fmt.Fprintf(b, "- %d benchmark(s) in %d suite(s): %s\n\n", len(r.Benchmarks), len(suites), strings.Join(quoted, ", "))
	if len(r.Run.Env) > 0 {
		b.WriteString("<details><summary>Environment</summary>\n\n| key | value |\n|:--|:--|\n")
		for _, k := range slices.Sorted(maps.Keys(r.Run.Env)) {
			fmt.Fprintf(b, "| %s | %s |\n", mdCode(k), md(r.Run.Env[k]))
		}
		b.WriteString("\n</details>\n\n")
	}
	for _, s := range suites {
		var inSuite []model.Benchmark
		for _, bm := range r.Benchmarks {
			if bm.Suite == s {
				inSuite = append(inSuite, bm)
			}
		}
		fmt.Fprintf(b, "### %s\n\n", md(s))
		b.WriteString("| benchmark | unit | n | mean | median | std | p95 | p99 | min | max |\n")
		b.WriteString("|:--|:--|--:|--:|--:|--:|--:|--:|--:|--:|\n")
		for _, bm := range r.Benchmarks {
			if bm.Suite != s {
				continue
			}
			if bm.Error != "" || len(bm.Samples) == 0 {
				fmt.Fprintf(b, "| %s | %s | 0 | error: %s | | | | | | |\n", mdCode(bm.Name), md(bm.Unit), md(bm.Error))
				continue
			}
			d := stats.Describe(bm.Samples)
			fmt.Fprintf(b, "| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s |\n", mdCode(bm.Name), md(bm.Unit), d.N,
				mdValue(d.Mean, bm.Unit), mdValue(d.Median, bm.Unit), mdValue(d.Std, bm.Unit), mdValue(d.P95, bm.Unit),
				mdValue(d.P99, bm.Unit), mdValue(d.Min, bm.Unit), mdValue(d.Max, bm.Unit))
		}
		b.WriteString("\n")
		writeFigures(b, inSuite)
	}
}

package report

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
)

// A speedupRow is one benchmark (its name without the mode) against one
// reference, with the speedups of each mode.
type speedupRow struct {
	suite, bench, metric, ref string
	byMode                    map[string][]float64
}

// WriteSpeedups writes, as one Markdown table, the speedups of runs'
// benchmarks over the in-run references whose metrics are
// speedup_vs_<prefix> or speedup_vs_<prefix>_* and that name their
// reference in info.reference_<metric> (prefix torch: every PyTorch
// reference of run --reference torch, and not a python suite's reference
// that happens to be called torch_add): a row per benchmark and
// reference, its name without the mode, the reference's op, and the cold
// and batch speedups with their categories (the median over runs). It is
// the table of ratios docs/gpu.md shows, generated from a run's results.
// A run without such metrics writes a line saying so.
func WriteSpeedups(w io.Writer, runs []*model.Results, prefix string) error {
	var rows []*speedupRow
	byKey := map[string]*speedupRow{}
	for _, r := range runs {
		for _, b := range r.Benchmarks {
			if b.Error != "" {
				continue
			}
			bench, mode := splitMode(b.Name)
			for _, m := range slices.Sorted(maps.Keys(b.Metrics)) {
				suffix, ok := strings.CutPrefix(m, "speedup_vs_")
				ref := b.Info["reference_"+suffix]
				if !ok || (suffix != prefix && !strings.HasPrefix(suffix, prefix+"_")) || !(b.Metrics[m] > 0) || ref == "" {
					continue
				}
				k := b.Suite + "/" + bench + "\x00" + suffix
				row := byKey[k]
				if row == nil {
					row = &speedupRow{suite: b.Suite, bench: bench, metric: suffix, ref: refOp(ref), byMode: map[string][]float64{}}
					byKey[k] = row
					rows = append(rows, row)
				}
				row.byMode[mode] = append(row.byMode[mode], b.Metrics[m])
			}
		}
	}
	var sb strings.Builder
	if len(rows) == 0 {
		fmt.Fprintf(&sb, "No benchmark of these results has a speedup_vs_%s metric.\n", plain(prefix))
		_, err := io.WriteString(w, sb.String())
		return err
	}
	sb.WriteString("| suite | benchmark | reference | cold | batch |\n|:--|:--|:--|--:|--:|\n")
	for _, row := range rows {
		fmt.Fprintf(&sb, "| %s | %s | %s | %s | %s |\n", mdCode(row.suite), mdCode(row.bench), mdCode(row.ref),
			speedupText(row.byMode["cold"]), speedupText(row.byMode["batch"]))
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// splitMode cuts the last /mode=… segment off a benchmark name.
func splitMode(name string) (string, string) {
	i := strings.LastIndex(name, "/mode=")
	if i < 0 {
		return name, ""
	}
	return name[:i], name[i+len("/mode="):]
}

// refOp is the op of a reference "suite/op/…".
func refOp(ref string) string {
	parts := strings.SplitN(ref, "/", 3)
	if len(parts) < 2 {
		return ref
	}
	return parts[1]
}

// speedupText is the median of vs with its category, or "" when none.
func speedupText(vs []float64) string {
	if len(vs) == 0 {
		return ""
	}
	s := slices.Sorted(slices.Values(vs))
	med := (s[(len(s)-1)/2] + s[len(s)/2]) / 2
	return fmt.Sprintf("%.2f× (%s)", med, compare.SpeedupCategory(med))
}

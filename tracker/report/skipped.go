package report

import (
	"fmt"
	"strings"

	"github.com/perfgate/perfgate/tracker/compare"
)

// writeSkipped lists, collapsed, the benchmarks not measured on purpose
// (compare.Skipped) and why: their kernels' PTX is the baseline's.
func writeSkipped(b *strings.Builder, c *compare.Comparison) {
	n := c.Summary.Skipped
	if n == 0 {
		return
	}
	fmt.Fprintf(b, "<details><summary>⏭️ %s skipped, not measured: kernel unchanged since the baseline</summary>\n\n", count(n, "benchmark"))
	b.WriteString("| benchmark | why |\n|:--|:--|\n")
	for i := range c.Results {
		r := &c.Results[i]
		if r.Verdict == compare.Skipped {
			fmt.Fprintf(b, "| %s | %s |\n", mdCode(r.Suite+"/"+r.Name), md(r.Reason))
		}
	}
	b.WriteString("\n</details>\n\n")
}

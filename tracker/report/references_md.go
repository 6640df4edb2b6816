package report

import (
	"fmt"
	"strings"

	"github.com/perfgate/perfgate/tracker/compare"
)

// writeReferences writes the candidate's in-run references: each
// benchmark's speedup over the benchmark of the same run it names, with its
// category. They are information, not verdicts.
func writeReferences(b *strings.Builder, c *compare.Comparison) {
	if len(c.References) == 0 {
		return
	}
	fmt.Fprintf(b, "<details><summary>In-run references (%d)</summary>\n\n", len(c.References))
	b.WriteString("| benchmark | reference | speedup | category |\n|:--|:--|--:|:--|\n")
	for _, r := range c.References {
		fmt.Fprintf(b, "| %s | %s | %.3f× | %s |\n", mdCode(r.Suite+"/"+r.Name), mdCode(r.Reference), r.Speedup, r.Category)
	}
	b.WriteString("\n</details>\n\n")
}

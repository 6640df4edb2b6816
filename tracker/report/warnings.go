package report

import (
	"fmt"
	"strings"

	"github.com/perfgate/perfgate/tracker/compare"
)

// A warning is one benchmark's caveat (compare.Result.Warnings).
type warning struct{ bench, text string }

func warnings(c *compare.Comparison) []warning {
	var out []warning
	for i := range c.Results {
		r := &c.Results[i]
		for _, w := range r.Warnings {
			out = append(out, warning{r.Suite + "/" + r.Name, w.Error()})
		}
	}
	return out
}

// writeWarnings writes the caveats as a Markdown list.
func writeWarnings(b *strings.Builder, c *compare.Comparison) {
	ws := warnings(c)
	if len(ws) == 0 {
		return
	}
	fmt.Fprintf(b, "#### 🔊 Noise warnings (%d)\n\n", len(ws))
	for _, w := range ws {
		b.WriteString("- " + mdCode(w.bench) + ": " + md(w.text) + "\n")
	}
	b.WriteByte('\n')
}

// textWarnings renders the caveats for the terminal.
func textWarnings(c *compare.Comparison) string {
	var b strings.Builder
	for _, w := range warnings(c) {
		b.WriteString("warning: " + plain(w.bench) + ": " + plain(w.text) + "\n")
	}
	return b.String()
}

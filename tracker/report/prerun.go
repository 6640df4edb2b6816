package report

import "strings"

// WithPreRunNotes puts the pre-run checks' warnings (perfgate doctor's, run
// before measuring) under the verdict heading of a Markdown report, escaped.
// With no warnings it returns md unchanged.
func WithPreRunNotes(doc string, warnings []string) string {
	if len(warnings) == 0 {
		return doc
	}
	var b strings.Builder
	b.WriteString("\n> [!WARNING]\n> **Pre-run checks** (perfgate doctor, before measuring; measured anyway):\n")
	for _, w := range warnings {
		b.WriteString("> - " + md(w) + "\n")
	}
	i := strings.Index(doc, "### ")
	if i < 0 {
		return b.String() + "\n" + doc
	}
	end := strings.IndexByte(doc[i:], '\n')
	if end < 0 {
		return doc + "\n" + b.String()
	}
	return doc[:i+end+1] + b.String() + doc[i+end+1:]
}

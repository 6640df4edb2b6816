package report

import (
	"io"

	"github.com/perfgate/perfgate/tracker/trend"
)

// TrendFormats are the output formats of perfgate trend (--format).
var TrendFormats = []string{"table", "csv", "json", "markdown", "latex"}

// RenderTrend writes the series, or with changes only their steps, in
// format (one of TrendFormats; anything else is the table).
func RenderTrend(w io.Writer, format string, changes bool, out []trend.Series) error {
	if changes {
		cs := trend.Changes(out)
		switch format {
		case "csv":
			return ChangesCSV(w, cs)
		case "json":
			return ChangesJSON(w, cs)
		case "markdown":
			_, err := io.WriteString(w, ChangesTableMarkdown(cs, ""))
			return err
		case "latex":
			return TrendLaTeX(w, out)
		}
		return ChangesTable(w, cs)
	}
	switch format {
	case "markdown":
		return TrendMarkdown(w, out)
	case "latex":
		return TrendLaTeX(w, out)
	case "csv":
		return TrendCSV(w, out)
	case "json":
		return TrendJSON(w, out)
	}
	return TrendTable(w, out)
}

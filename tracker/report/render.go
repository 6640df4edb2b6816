package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/confirm"
)

// The output formats of compare, check, ab and demo (--format).
const (
	FormatText     = "text"
	FormatMarkdown = "markdown"
	FormatJSON     = "json"
	FormatCSV      = "csv"
	FormatLaTeX    = "latex"
)

// Formats lists the output formats.
var Formats = []string{FormatText, FormatMarkdown, FormatJSON, FormatCSV, FormatLaTeX}

// Render writes the comparison in format, with the confirmation (nil:
// none): after the table in text, a section after the verdict in
// Markdown. The JSON report carries the final verdicts; the reasons of
// regressions that did not hold say so. An unknown format is an error
// naming the formats.
func Render(w io.Writer, c *compare.Comparison, conf *confirm.Confirmation, format string) error {
	var err error
	switch format {
	case FormatText:
		s := Text(c)
		if conf != nil {
			s += ConfirmText(conf)
		}
		_, err = io.WriteString(w, s)
	case FormatMarkdown:
		_, err = io.WriteString(w, Markdown(c, Options{Confirmation: conf}))
	case FormatJSON:
		err = JSON(w, c)
	case FormatCSV:
		err = CSV(w, c)
	case FormatLaTeX:
		err = LaTeX(w, c)
	default:
		return fmt.Errorf("format %q: must be one of %s", format, strings.Join(Formats, ", "))
	}
	if err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

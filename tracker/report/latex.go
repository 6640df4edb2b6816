package report

import (
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/perfgate/perfgate/tracker/compare"
)

// LaTeX writes the comparison as a booktabs table for a paper or a
// report: benchmark, baseline and candidate medians, change, its
// confidence interval and verdict, one row per benchmark. User text is
// escaped; the caller's document needs \usepackage{booktabs}.
func LaTeX(w io.Writer, c *compare.Comparison) error {
	var b strings.Builder
	b.WriteString("% perfgate comparison: " + latexText(VerdictLine(c)) + "\n")
	b.WriteString("\\begin{tabular}{lrrrcl}\n\\toprule\n")
	fmt.Fprintf(&b, "Benchmark & Baseline & Candidate & Change & %s CI & Verdict \\\\\n\\midrule\n", latexText(level(c.Options.CILevel())))
	for _, r := range c.Results {
		fmt.Fprintf(&b, "%s & %s & %s & %s & %s & %s \\\\\n", latexText(r.Suite+"/"+r.Name),
			latexText(value(r.BaselineMedian, r.Unit)), latexText(value(r.CandidateMedian, r.Unit)),
			latexText(pct(r.Change)), latexText(ci(r.CILow, r.CIHigh, " to ")), latexText(string(r.Verdict)))
	}
	b.WriteString("\\bottomrule\n\\end{tabular}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// latexText escapes LaTeX's special characters in user text, so a name
// can neither run a command nor end a cell.
func latexText(s string) string {
	var b strings.Builder
	for _, r := range plain(s) {
		switch r {
		case '\\':
			b.WriteString(`\textbackslash{}`)
		case '{', '}', '$', '&', '#', '_', '%':
			b.WriteString(`\` + string(r))
		case '[', ']': // a row starting with "[" is read as the optional argument of the \\ before it
			b.WriteString("{" + string(r) + "}")
		case '^':
			b.WriteString(`\textasciicircum{}`)
		case '~':
			b.WriteString(`\textasciitilde{}`)
		case '|':
			b.WriteString(`\textbar{}`)
		case '<':
			b.WriteString(`\textless{}`)
		case '>':
			b.WriteString(`\textgreater{}`)
		case '−':
			b.WriteString(`$-$`)
		case '…':
			b.WriteString(`\ldots{}`)
		case '→':
			b.WriteString(`$\rightarrow$`)
		case 'µ':
			b.WriteString(`$\mu$`)
		case '—', '–':
			b.WriteString(`--`)
		case '±':
			b.WriteString(`$\pm$`)
		case '×':
			b.WriteString(`$\times$`)
		case '·':
			b.WriteString(`;`)
		default:
			// Plain ASCII and letters of any script pass; symbols a
			// stock pdflatex cannot set (the verdict emoji) are dropped.
			if r < 0x80 || unicode.IsLetter(r) || unicode.IsDigit(r) {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}

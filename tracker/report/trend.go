package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/perfgate/perfgate/tracker/trend"
)

// TrendMarkdown writes `perfgate trend --format markdown`: per series, a
// table of its runs (oldest first) with the steps marked where they start.
// All user text is escaped.
func TrendMarkdown(w io.Writer, series []trend.Series) error {
	var b strings.Builder
	if len(series) == 0 {
		b.WriteString("No runs match.\n")
	}
	for _, s := range series {
		fmt.Fprintf(&b, "### %s (%s, %s is better): %d run(s), %d step(s)\n\n", mdCode(s.Suite+"/"+s.Name), md(s.Unit), s.Better, len(s.Points), len(s.Steps))
		b.WriteString("| started | commit | run | median | cv | n | step |\n|:--|:--|:--|--:|--:|--:|:--|\n")
		steps := stepAtIndex(s)
		for j, p := range s.Points {
			mark := ""
			if st, ok := steps[j]; ok {
				mark = fmt.Sprintf("%s %s (p %.2g)", bold(fmt.Sprintf("%+.1f%%", 100*st.Change), st.Kind == "regression"), st.Kind, st.P)
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %.2f%% | %d | %s |\n", p.Run.StartedAt.UTC().Format("2006-01-02 15:04Z"),
				mdCode(shortCommit(p.Run.Commit)), mdCode(p.Run.ID), fmtNum(p.Median), 100*p.CV, p.N, mark)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// TrendLaTeX writes `perfgate trend --format latex`: one booktabs table of
// the steps (change points) of every series, newest first.
func TrendLaTeX(w io.Writer, series []trend.Series) error {
	var b strings.Builder
	b.WriteString("\\begin{tabular}{lllrrrr}\n\\toprule\n")
	b.WriteString("Benchmark & Commit & Started & Before & After & Change & $p$ \\\\\n\\midrule\n")
	for _, c := range trend.Changes(series) {
		fmt.Fprintf(&b, "%s & %s & %s & %s & %s & %s & %s \\\\\n", latexText(c.Suite+"/"+c.Name), latexText(shortCommit(c.Run.Commit)),
			c.Run.StartedAt.UTC().Format("2006-01-02"), latexText(fmtNum(c.Before)+" "+c.Unit), latexText(fmtNum(c.After)+" "+c.Unit),
			latexText(fmt.Sprintf("%+.1f%%", 100*c.Change)), latexText(fmt.Sprintf("%.2g", c.P)))
	}
	b.WriteString("\\bottomrule\n\\end{tabular}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

package report

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/perfgate/perfgate/internal/textcol"
	"github.com/perfgate/perfgate/tracker/compare"
)

// Text renders the comparison as a terminal table: the verdict line, then
// one row per benchmark with what needs attention first (regressions,
// errors, warnings, improvements, insufficient, unchanged), then the runs,
// the environment differences and the method. User text is stripped of
// control characters.
func Text(c *compare.Comparison) string {
	var b strings.Builder
	_, words := verdict(c)
	fmt.Fprintf(&b, "perfgate: %s\n", words)
	if len(c.Results) > 0 {
		b.WriteByte('\n')
		rows := make([][]string, 0, len(c.Results)+1)
		rows = append(rows, []string{"verdict", "benchmark", "baseline", "candidate", "change", level(c.Options.CILevel()) + " CI", "p (adj.)", "n", "run spread", "note"})
		cells := make([]string, 10*len(c.Results))
		for i, r := range attentionOrder(c.Results) {
			row := cells[10*i : 10*i+10 : 10*i+10]
			row[0], row[1], row[2], row[3] = verdictWords(r), plain(r.Suite+"/"+r.Name), value(r.BaselineMedian, r.Unit), value(r.CandidateMedian, r.Unit)
			row[4], row[5], row[6] = pct(r.Change), ci(r.CILow, r.CIHigh, " … "), pval(shownP(r))
			row[7], row[8], row[9] = strconv.Itoa(r.NBaseline)+"/"+strconv.Itoa(r.NCandidate), spread(r), plain(r.Reason)
			rows = append(rows, row)
		}
		// Left-aligned, the note the text after the columns, each line's
		// trailing spaces dropped: what tabwriter (flags 0) and
		// strings.TrimRight of each line printed.
		textcol.Write(&b, rows, textcol.Format{Align: textcol.Left, Text: true, Trim: true})
	}
	if w := textWarnings(c); w != "" {
		b.WriteString("\n" + w)
	}
	writeTextDistributions(&b, c)
	b.WriteByte('\n')
	for _, line := range runLines(c, plain, func(s string) string { return s }) {
		b.WriteString(line + "\n")
	}
	if diffs := envDiffs(c); len(diffs) > 0 {
		b.WriteString("environment differs:\n")
		warn := envWarnings(c)
		for _, k := range diffs {
			note := ""
			if !slices.Contains(warn, k) {
				note = " (varies between baseline runs)"
			}
			fmt.Fprintf(&b, "  %s: %s → %s%s\n", plain(k), plain(orDash(c.BaselineEnv[k])), plain(orDash(c.CandidateEnv[k])), note)
		}
	}
	b.WriteString("method: " + method(c) + "\n")
	return b.String()
}

// attentionOrder returns the results sorted by verdict severity, then by
// suite and name.
func attentionOrder(rs []compare.Result) []*compare.Result {
	out := make([]*compare.Result, len(rs))
	for i := range rs {
		out[i] = &rs[i]
	}
	slices.SortStableFunc(out, func(a, b *compare.Result) int { return cmp.Compare(order[a.Verdict], order[b.Verdict]) })
	return out
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

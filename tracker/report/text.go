package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

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
		var tb strings.Builder
		tw := tabwriter.NewWriter(&tb, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "verdict\tbenchmark\tbaseline\tcandidate\tchange\t%s CI\tp (adj.)\tn\trun spread\tnote\n", level(c.Options.CILevel()))
		for _, r := range attentionOrder(c.Results) {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d/%d\t%s\t%s\n",
				verdictWords(r), plain(r.Suite+"/"+r.Name), value(r.BaselineMedian, r.Unit), value(r.CandidateMedian, r.Unit),
				pct(r.Change), ci(r.CILow, r.CIHigh, " … "), pval(shownP(r)), r.NBaseline, r.NCandidate, spread(r), plain(r.Reason))
		}
		tw.Flush()
		for _, line := range strings.Split(strings.TrimSuffix(tb.String(), "\n"), "\n") {
			b.WriteString(strings.TrimRight(line, " ") + "\n")
		}
	}
	if w := textWarnings(c); w != "" {
		b.WriteString("\n" + w)
	}
	if d := textDistributions(c); d != "" {
		b.WriteString("\n" + d)
	}
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

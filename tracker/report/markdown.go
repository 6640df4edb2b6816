package report

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/confirm"
	"github.com/perfgate/perfgate/tracker/model"
)

// Options controls Markdown rendering.
type Options struct {
	Title string // shown before the verdict; escaped
	// MaxBytes bounds the size of the output; 0 means no limit. A report
	// that does not fit drops, in turn, the table of all benchmarks, the
	// environment, runs and method, and then changed rows from the end
	// (improvements, then warnings, then errors; regressions last); it always keeps the
	// verdict line and the Footer and points to Overflow.
	MaxBytes int
	// Overflow says where the full report is, e.g. "the full report is in
	// the job summary: URL". It is Markdown from the caller: not escaped.
	Overflow string
	// Footer ends the report, e.g. a hidden marker for a sticky comment. It
	// is Markdown from the caller: not escaped.
	Footer string
	// Confirmation, when set, is what re-running the regressions showed
	// (confirm.go); it is never cut.
	Confirmation *confirm.Confirmation
	// History, when set, adds a chart of the recent baseline medians and
	// the candidate of each changed benchmark (mermaid.go); the charts go
	// first when the report must be cut.
	History Histories
	// Acceptances are the regressions accepted on the pull request
	// (/perfgate accept): who accepted which benchmarks and why, listed
	// under the verdict (accept.go); never cut.
	Acceptances []model.Acceptance
}

// layout says which parts of the report to render.
type layout struct {
	rows      int  // changed rows to show; negative: all
	details   bool // the collapsed table of every benchmark
	context   bool // environment, runs and method
	truncated bool // point to Options.Overflow
	charts    bool // the history charts (mermaid.go)
}

// Markdown renders the comparison for a PR comment or a job summary: the
// verdict line; the regressions, warnings, improvements and errors; a
// collapsed table of every benchmark; the environments side by side with
// the differences in bold; the runs used and passed over; and a footnote on
// the method. All user text is escaped (see md).
func Markdown(c *compare.Comparison, o Options) string {
	full := renderMarkdown(c, o, layout{rows: -1, details: true, context: true, charts: true})
	if o.MaxBytes <= 0 || len(full) <= o.MaxBytes {
		return full
	}
	if s := renderMarkdown(c, o, layout{rows: -1, details: true, context: true}); len(s) <= o.MaxBytes {
		return s
	}
	for _, l := range []layout{{rows: -1, context: true, truncated: true}, {rows: -1, truncated: true}} {
		if s := renderMarkdown(c, o, l); len(s) <= o.MaxBytes {
			return s
		}
	}
	// The most changed rows that fit, by bisection (size grows with rows).
	lo, hi := -1, len(changed(c))
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if len(renderMarkdown(c, o, layout{rows: mid, truncated: true})) <= o.MaxBytes {
			lo = mid
		} else {
			hi = mid
		}
	}
	if lo >= 0 {
		return renderMarkdown(c, o, layout{rows: lo, truncated: true})
	}
	return hardCut(c, o)
}

// hardCut is the last resort: the verdict line, cut to fit, then the
// overflow pointer and the footer.
func hardCut(c *compare.Comparison, o Options) string {
	tail := "\n\n" + overflowLine(o) + footer(o)
	head := heading(c, o)
	room := o.MaxBytes - len(tail)
	if room < 0 {
		room = 0
	}
	if len(head) > room {
		head = head[:room]
		for !utf8.ValidString(head) {
			head = head[:len(head)-1]
		}
	}
	return head + tail
}

func heading(c *compare.Comparison, o Options) string {
	h := "### "
	if o.Title != "" {
		h += md(o.Title) + ": "
	}
	return h + md(VerdictLine(c))
}

func overflowLine(o Options) string {
	s := "✂️ This report was shortened to fit."
	if o.Overflow != "" {
		s += " " + o.Overflow
	}
	return s + "\n"
}

func footer(o Options) string {
	if o.Footer == "" {
		return ""
	}
	return "\n" + o.Footer + "\n"
}

func renderMarkdown(c *compare.Comparison, o Options, l layout) string {
	var b strings.Builder
	b.WriteString(heading(c, o) + "\n\n")
	if diffs := envWarnings(c); len(diffs) > 0 {
		fmt.Fprintf(&b, "⚠️ The baseline and candidate environments differ in %s%s.\n\n",
			md(strings.Join(diffs, ", ")), map[bool]string{true: " (see Environment below)", false: ""}[l.context])
	}
	b.WriteString(confirmMarkdown(o.Confirmation))
	b.WriteString(acceptMarkdown(c, o.Acceptances))
	writeChanged(&b, c, l.rows, l.context)
	writeWarnings(&b, c)
	if l.context { // dropped with the context when the report must be cut; the verdict line keeps the count
		writeSkipped(&b, c)
	}
	if l.charts {
		b.WriteString(historyMarkdown(c, o.History))
	}
	if l.truncated {
		b.WriteString(overflowLine(o) + "\n")
	}
	if l.details && len(c.Results) > 0 {
		writeDetails(&b, c)
		writeDistributions(&b, c)
	}
	if l.details {
		writeReferences(&b, c)
	}
	if l.context {
		writeEnv(&b, c)
		for _, line := range runLines(c, md, mdCode) {
			b.WriteString("- " + line + "\n")
		}
		b.WriteString("\n<sub>Method: " + md(method(c)) + "</sub>\n")
	}
	b.WriteString(footer(o))
	return b.String()
}

// A section is one group of changed benchmarks.
type section struct {
	title   string
	verdict compare.Verdict
	why     bool // show the reason column
}

// sections lists the changed sections in the order they are shown and
// kept when a report must be cut: errors come right after regressions, as
// a benchmark that failed may hide one.
var sections = []section{
	{"❌ Regressions", compare.Regression, false},
	{"☑️ Accepted regressions", compare.Accepted, true},
	{"💥 Errors", compare.Error, true},
	{"⚠️ Inconclusive", compare.Warn, true},
	{"🟢 Improvements", compare.Improvement, false},
	{"〰️ Too noisy to judge", compare.Noisy, true},
	{"⏳ Not yet gateable: too little history", compare.NotYet, true},
}

// changed returns the rows of the changed sections, in section order.
func changed(c *compare.Comparison) []*compare.Result {
	var out []*compare.Result
	for _, s := range sections {
		for i := range c.Results {
			if c.Results[i].Verdict == s.verdict {
				out = append(out, &c.Results[i])
			}
		}
	}
	return out
}

// writeChanged writes the changed sections with at most limit rows in all
// (negative: no limit), and with notes what their columns mean.
func writeChanged(b *strings.Builder, c *compare.Comparison, limit int, notes bool) {
	rows := changed(c)
	shown := len(rows)
	if limit >= 0 && limit < shown {
		shown = limit
	}
	ciHead := level(c.Options.CILevel()) + " CI"
	i := 0
	for _, s := range sections {
		var sec []*compare.Result
		for ; i < len(rows) && rows[i].Verdict == s.verdict; i++ {
			if i < shown {
				sec = append(sec, rows[i])
			}
		}
		if len(sec) == 0 {
			continue
		}
		fmt.Fprintf(b, "#### %s (%d)\n\n", s.title, countVerdict(c, s.verdict))
		b.WriteString("| benchmark | baseline → candidate | change¹ | " + ciHead + " | p² | n³ |")
		align := "|:--|--:|--:|:-:|--:|--:|"
		if s.why {
			b.WriteString(" why |")
			align += ":--|"
		}
		b.WriteString("\n" + align + "\n")
		for _, r := range sec {
			fmt.Fprintf(b, "| %s | %s\u00a0→ %s | %s | %s | %s | %d/%d |",
				mdCode(r.Suite+"/"+r.Name), mdValue(r.BaselineMedian, r.Unit), mdValue(r.CandidateMedian, r.Unit),
				bold(pct(r.Change), r.Verdict == compare.Regression), ci(r.CILow, r.CIHigh, "\u00a0… "), md(pval(shownP(r))),
				r.NBaseline, r.NCandidate)
			if s.why {
				b.WriteString(" " + md(r.Reason) + " |")
			}
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
	}
	if hidden := len(rows) - shown; hidden > 0 {
		fmt.Fprintf(b, "… and %s not shown.\n\n", count(hidden, "more changed benchmark"))
	}
	if shown > 0 && notes {
		b.WriteString(columnNotes + "\n\n")
	}
	if n := c.Summary.Insufficient; n > 0 {
		fmt.Fprintf(b, "❔ %s too few samples to judge (new benchmarks among them); see the table of all benchmarks.\n\n",
			map[bool]string{true: "1 benchmark has", false: fmt.Sprintf("%d benchmarks have", n)}[n == 1])
	}
}

// columnNotes says what the changed tables' columns are: the baseline and
// candidate figures are what the run-level test compares, and the change
// is their ratio (a change that was not the ratio of the medians beside it
// read as a bug).
const columnNotes = "<sub>¹ change: candidate/baseline − 1 of the figures shown (positive is worse): the geometric means of the runs' medians " +
	"that the test across runs compares, the baseline's over its jobs; with one run a side and no rounds, the Hodges–Lehmann shift of the " +
	"pooled samples beside their medians. ² p: adjusted one-sided p-value in the direction of the change. " +
	"³ n: samples, baseline/candidate.</sub>"

func countVerdict(c *compare.Comparison, v compare.Verdict) int {
	n := 0
	for i := range c.Results {
		if c.Results[i].Verdict == v {
			n++
		}
	}
	return n
}

func bold(s string, on bool) string {
	if on && s != "—" {
		return "**" + s + "**"
	}
	return s
}

// writeDetails writes the collapsed table of every benchmark.
func writeDetails(b *strings.Builder, c *compare.Comparison) {
	fmt.Fprintf(b, "<details><summary>All benchmarks (%d)</summary>\n\n", len(c.Results))
	// Ten columns do not fit a 780 px comment: the verdict and the run
	// spread join the note, and p is in the changed tables (and the text
	// and JSON reports).
	b.WriteString("| benchmark | baseline → candidate | change | " + level(c.Options.CILevel()) +
		" CI | n | verdict, note |\n|:--|--:|--:|:-:|--:|:--|\n")
	for i := range c.Results {
		r := &c.Results[i]
		note := verdictWords(r) + "; runs " + spread(r)
		if r.Reason != "" {
			note += "; " + r.Reason
		}
		fmt.Fprintf(b, "| %s | %s\u00a0→ %s | %s | %s | %d/%d | %s |\n",
			mdCode(r.Suite+"/"+r.Name), mdValue(r.BaselineMedian, r.Unit), mdValue(r.CandidateMedian, r.Unit),
			pct(r.Change), ci(r.CILow, r.CIHigh, "\u00a0… "), r.NBaseline, r.NCandidate, md(note))
	}
	b.WriteString("\n</details>\n\n")
}

// writeEnv writes the environments side by side, differences in bold.
func writeEnv(b *strings.Builder, c *compare.Comparison) {
	keys := envKeys(c)
	if len(keys) == 0 {
		return
	}
	summary := "Environment: identical"
	for _, k := range keys {
		if c.BaselineEnv[k] == "" || c.CandidateEnv[k] == "" {
			summary = "Environment: partly unknown"
		}
	}
	warn := envWarnings(c)
	if diffs := envDiffs(c); len(warn) > 0 {
		summary = "Environment: ⚠️ differs in " + htmlText(strings.Join(warn, ", "))
	} else if len(diffs) > 0 {
		summary = "Environment: differs only in readings that vary between baseline runs (" + htmlText(strings.Join(diffs, ", ")) + ")"
	}
	b.WriteString("<details><summary>" + summary + "</summary>\n\n| | baseline | candidate |\n|:--|:--|:--|\n")
	for _, k := range keys {
		base, cand := md(orDash(c.BaselineEnv[k])), md(orDash(c.CandidateEnv[k]))
		diff := envDiffers(c, k)
		key := md(k)
		switch {
		case slices.Contains(warn, k):
			key = "⚠️ **" + key + "**"
		case diff:
			key = "**" + key + "**"
		}
		fmt.Fprintf(b, "| %s | %s | %s |\n", key, bold(base, diff), bold(cand, diff))
	}
	b.WriteString("\n</details>\n\n")
}

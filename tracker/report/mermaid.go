package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/units"
)

// A History is the baseline branch's recent record of one benchmark, for
// the charts of a report: the medians of its latest runs, oldest first.
// The caller reads it from the store; this package does no I/O. The charts
// show one point per job: the rounds of one commit in a row are one point,
// the geometric mean of their medians, as the verdict's test takes them.
type History struct {
	Unit   string
	Points []HistoryPoint
}

// A HistoryPoint is one run's median.
type HistoryPoint struct {
	Commit string
	Median float64
}

// Histories maps "suite/name" to its history.
type Histories map[string]History

// MaxCharts is how many changed benchmarks get a Mermaid chart; the next
// MaxSparklines get a one-line sparkline.
const (
	MaxCharts     = 6
	MaxSparklines = 24
)

// historyMarkdown renders the history of the changed benchmarks (not
// unchanged, not errors), in section order: a Mermaid xychart-beta line
// of the baseline medians with the candidate as the last point, for the
// first MaxCharts, and a sparkline for the next MaxSparklines. It is ""
// without histories.
func historyMarkdown(c *compare.Comparison, h Histories) string {
	if len(h) == 0 {
		return ""
	}
	var charts, sparks strings.Builder
	nc, ns := 0, 0
	for _, r := range changed(c) {
		hist, ok := h[r.Suite+"/"+r.Name]
		if !ok || r.Verdict == compare.Error || len(hist.Points) == 0 || hist.Unit != r.Unit || !finite(r.CandidateMedian) {
			continue
		}
		switch {
		case nc < MaxCharts:
			charts.WriteString(mermaidChart(r, hist))
			nc++
		case ns < MaxSparklines:
			fmt.Fprintf(&sparks, "- %s %s → %s %s\n", mdCode(r.Suite+"/"+r.Name), sparkline(values(byJob(hist), r)), md(pct(r.Change)), md(string(r.Verdict)))
			ns++
		}
	}
	if nc == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<details open><summary>📈 History: the last runs of the baseline branch, then this candidate (%d chart(s))</summary>\n\n", nc)
	b.WriteString(charts.String())
	if ns > 0 {
		b.WriteString(sparks.String() + "\n")
	}
	b.WriteString("</details>\n\n")
	return b.String()
}

// byJob merges the points of h that are rounds of one job (the same
// commit, one after another) into one point: the geometric mean of their
// medians.
func byJob(h History) History {
	out := History{Unit: h.Unit}
	var logs float64
	n := 0
	for i, p := range h.Points {
		logs += math.Log(p.Median)
		n++
		if i+1 < len(h.Points) && h.Points[i+1].Commit == p.Commit {
			continue
		}
		out.Points = append(out.Points, HistoryPoint{Commit: p.Commit, Median: math.Exp(logs / float64(n))})
		logs, n = 0, 0
	}
	return out
}

// mermaidChart is one fenced xychart-beta block, one point per job, in the
// unit the tables show the candidate in (µs rather than ns). Everything in
// it comes from mermaidText or numbers, so no name can close the fence or
// the quotes.
func mermaidChart(r *compare.Result, h History) string {
	h = byJob(h)
	vals := values(h, r)
	f, unit := units.Scale(r.CandidateMedian, r.Unit)
	for i := range vals {
		vals[i] *= f
	}
	lo, hi := vals[0], vals[0]
	for _, v := range vals {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	pad := 0.1 * (hi - lo)
	if pad == 0 {
		pad = 0.05 * math.Abs(hi)
	}
	labels := make([]string, len(vals))
	for i, p := range h.Points {
		labels[i] = strconv.Quote(mermaidCommit(p.Commit))
	}
	labels[len(labels)-1] = `"candidate"`
	nums := make([]string, len(vals))
	for i, v := range vals {
		nums[i] = strconv.FormatFloat(v, 'g', 6, 64)
	}
	var b strings.Builder
	// The line takes the verdict's colour (Mermaid's default is a pale
	// lilac that GitHub's light theme barely shows).
	fmt.Fprintf(&b, "```mermaid\n%%%%{init: {\"themeVariables\": {\"xyChart\": {\"plotColorPalette\": \"%s\"}}}}%%%%\nxychart-beta\n", lineColor(r.Verdict))
	fmt.Fprintf(&b, "    title \"%s: %s\"\n", mermaidText(r.Suite+"/"+r.Name), mermaidText(pct(r.Change)+" "+string(r.Verdict)))
	fmt.Fprintf(&b, "    x-axis [%s]\n", strings.Join(labels, ", "))
	fmt.Fprintf(&b, "    y-axis \"median (%s)\" %s --> %s\n", mermaidText(unit),
		strconv.FormatFloat(math.Max(0, lo-pad), 'g', 4, 64), strconv.FormatFloat(hi+pad, 'g', 4, 64))
	fmt.Fprintf(&b, "    line [%s]\n```\n\n", strings.Join(nums, ", "))
	return b.String()
}

// lineColor is GitHub's red for a regression, purple for an accepted one,
// green for an improvement, yellow for a warning and blue otherwise.
func lineColor(v compare.Verdict) string {
	switch v {
	case compare.Regression:
		return "#cf222e"
	case compare.Accepted:
		return "#8250df"
	case compare.Improvement:
		return "#1a7f37"
	case compare.Warn:
		return "#9a6700"
	}
	return "#0969da"
}

// values are the history's medians and the candidate's.
func values(h History, r *compare.Result) []float64 {
	out := make([]float64, 0, len(h.Points)+1)
	for _, p := range h.Points {
		out = append(out, p.Median)
	}
	return append(out, r.CandidateMedian)
}

// sparkline draws values with the eight block characters, low to high.
func sparkline(vals []float64) string {
	const bars = "▁▂▃▄▅▆▇█"
	blocks := []rune(bars)
	lo, hi := vals[0], vals[0]
	for _, v := range vals {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	var b strings.Builder
	for _, v := range vals {
		i := 0
		if hi > lo {
			i = int(math.Round((v - lo) / (hi - lo) * float64(len(blocks)-1)))
		}
		b.WriteRune(blocks[i])
	}
	return b.String()
}

// mermaidText keeps letters, digits, the micro sign and a few harmless
// punctuation marks of user text, and replaces everything else with "?": inside a Mermaid
// string a quote, a backtick, a bracket or a line break could end it.
func mermaidText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune(" /=.,:+-_%()µ", r):
			b.WriteRune(r)
		default:
			b.WriteByte('?')
		}
	}
	return b.String()
}

// mermaidCommit abbreviates a hex commit to seven characters; anything else
// shows as "?".
func mermaidCommit(c string) string {
	for _, r := range c {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return "?"
		}
	}
	if len(c) > 7 {
		c = c[:7]
	}
	if c == "" {
		return "?"
	}
	return c
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

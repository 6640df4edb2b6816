package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/internal/golden"
	"github.com/perfgate/perfgate/tracker/compare"
)

// historyOf makes a history of n flat medians around level for every
// changed benchmark of the mixed comparison, and a hostile one.
func historyOf(n int) Histories {
	h := Histories{}
	for i, key := range []string{"elementwise/add/fp32/n=16777216", "elementwise/mul/fp32/n=16777216", "reduce/sum/fp32"} {
		unit, level := "ns", 1045.0
		switch i {
		case 0:
			unit = "us" // not add's unit: no chart
		case 2:
			unit, level = "us", 105
		}
		var pts []HistoryPoint
		for j := range n {
			pts = append(pts, HistoryPoint{Commit: fmt.Sprintf("%07x%033d", 0xabc0000+j, 0), Median: level * (1 + 0.004*float64(j%3-1))})
		}
		h[key] = History{Unit: unit, Points: pts}
	}
	return h
}

func TestHistoryMarkdown(t *testing.T) {
	c := mixed(t)
	got := Markdown(c, Options{Title: "perfgate", History: historyOf(8)})
	golden.Check(t, "history.md", got)
	if n := strings.Count(got, "%%\nxychart-beta\n"); n != 2 {
		t.Errorf("%d charts, want 2 (mul and reduce; add's history is in another unit)", n)
	}
	// Without histories the report is the same as before.
	if a, b := Markdown(c, Options{Title: "perfgate"}), Markdown(c, Options{Title: "perfgate", History: Histories{}}); a != b || strings.Contains(a, "mermaid") {
		t.Error("a report without history changed, or has a chart")
	}
}

// TestHistoryFits checks a size limit drops the charts first: between
// the size without and with them, the report is the one without.
func TestHistoryFits(t *testing.T) {
	c := mixed(t)
	plain := Markdown(c, Options{Title: "perfgate"})
	with := Markdown(c, Options{Title: "perfgate", History: historyOf(20)})
	if len(with) <= len(plain) {
		t.Fatalf("charts add nothing: %d vs %d bytes", len(with), len(plain))
	}
	got := Markdown(c, Options{Title: "perfgate", History: historyOf(20), MaxBytes: len(with) - 1})
	if got != plain {
		t.Errorf("with %d bytes allowed, want the report without charts (%d bytes), got %d bytes", len(with)-1, len(plain), len(got))
	}
	if got := Markdown(c, Options{Title: "perfgate", History: historyOf(20), MaxBytes: len(with)}); got != with {
		t.Error("the report with charts fits its own size but was cut")
	}
}

func TestMermaidHostile(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"add/n=1M", "add/n=1M"},
		{"x\"]\n```\n<b>", "x????????b?"},
		{"a`b;c{d}", "a?b?c?d?"},
	} {
		if got := mermaidText(c.in); got != c.want {
			t.Errorf("mermaidText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{{"abcdef0123", "abcdef0"}, {"ABC\"", "?"}, {"", "?"}} {
		if got := mermaidCommit(c.in); got != c.want {
			t.Errorf("mermaidCommit(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := sparkline([]float64{1, 2, 3, 4, 5, 6, 7, 8}); got != "▁▂▃▄▅▆▇█" {
		t.Errorf("sparkline = %q", got)
	}
	if got := sparkline([]float64{5, 5}); got != "▁▁" {
		t.Errorf("flat sparkline = %q", got)
	}
}

// TestHistoryOnePointPerJob: the rounds of one job are one point of the
// chart (their geometric mean), and the y-axis is in the unit the tables
// show (µs for 1045 ns), with the values scaled to it.
func TestHistoryOnePointPerJob(t *testing.T) {
	c := mixed(t)
	var r *compare.Result
	for i := range c.Results {
		if c.Results[i].Suite+"/"+c.Results[i].Name == "elementwise/mul/fp32/n=16777216" {
			r = &c.Results[i]
		}
	}
	var pts []HistoryPoint
	for j := range 4 { // 4 jobs of 3 rounds
		for k := range 3 {
			pts = append(pts, HistoryPoint{Commit: fmt.Sprintf("%07x%033d", 0xabc0000+j, 0), Median: 1000 * (1 + 0.01*float64(j)) * (1 + 0.001*float64(k-1))})
		}
	}
	got := mermaidChart(r, History{Unit: r.Unit, Points: pts})
	if n := strings.Count(got, "\"abc000"); n != 4 {
		t.Errorf("%d commit labels, want one per job (4):\n%s", n, got)
	}
	if !strings.Contains(got, `y-axis "median (µs)"`) || !strings.Contains(got, "line [1, 1.01, 1.02, 1.03, ") {
		t.Errorf("want the y-axis in µs and one value per job:\n%s", got)
	}
}

package report

import (
	"bytes"
	"crypto/sha1"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/internal/golden"
	"github.com/perfgate/perfgate/internal/scaletest"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/trend"
)

// hourly builds a series of one run an hour from medians, as
// tracker/trend's step tests do (the goldens were made from them).
func hourly(better model.Better, medians ...float64) model.TrendSeries {
	se := model.TrendSeries{Suite: "elementwise", Name: "add/fp32/n=16777216", Unit: "ns", Better: better}
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for i, m := range medians {
		se.Points = append(se.Points, model.TrendPoint{
			Run:    model.RunRef{ID: fmt.Sprintf("run-%02d", i), Commit: fmt.Sprintf("%x", sha1.Sum([]byte{byte(i)})), Branch: "main", Testbed: "gpu-h100-1", StartedAt: at.Add(time.Duration(i) * time.Hour)},
			Median: m, CV: 0.01, N: 30,
		})
	}
	return se
}

// flatRuns is a flat level of 100 with ±1% wobble.
var flatRuns = []float64{100, 101, 99, 100.5, 99.5, 100.2, 99.8, 100.7, 99.3, 100.1}

// joined is xs one after the other, each scaled by its factor (xs and
// factors alternate: x0, f0, x1, f1, …).
func joined(parts ...any) []float64 {
	var out []float64
	for i := 0; i < len(parts); i += 2 {
		for _, v := range parts[i].([]float64) {
			out = append(out, v*parts[i+1].(float64))
		}
	}
	return out
}

func TestTrendText(t *testing.T) {
	tp := hourly(model.Higher, 1.5e6, 1.52e6, 1.49e6)
	tp.Suite, tp.Name, tp.Unit = "microbatch", "throughput/bs=8", "items/s"
	all := trend.Analyze([]model.TrendSeries{hourly(model.Lower, joined(flatRuns, 1.0, flatRuns[:5], 1.2)...), tp}, trend.DefaultOptions())
	for _, c := range []struct {
		name   string
		render func(io.Writer, []trend.Series) error
	}{
		{"trend_table.golden", TrendTable},
		{"trend_csv.golden", TrendCSV},
		{"trend_json.golden", TrendJSON},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := c.render(&b, all); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, c.name, b.Bytes())
		})
	}
	t.Run("empty", func(t *testing.T) {
		var b bytes.Buffer
		if err := TrendJSON(&b, trend.Analyze(nil, trend.DefaultOptions())); err != nil {
			t.Fatal(err)
		}
		if got := b.String(); got != "{\n  \"series\": []\n}\n" {
			t.Errorf("empty JSON = %q", got)
		}
	})
}

func TestChangesText(t *testing.T) {
	a := hourly(model.Lower, joined(flatRuns, 1.0, flatRuns, 1.3, flatRuns, 1.0)...)
	b := hourly(model.Higher, joined(flatRuns[:3], 1.0, flatRuns, 0.8)...)
	b.Suite, b.Name, b.Unit = "microbatch", "throughput/bs=8", "items/s"
	cs := trend.Changes(trend.Analyze([]model.TrendSeries{a, b}, trend.DefaultOptions()))
	if len(cs) != 3 {
		t.Fatalf("fixture: %d change points, want 3", len(cs))
	}
	for _, c := range []struct {
		name   string
		render func(io.Writer, []trend.Change) error
	}{
		{"changes_table.golden", ChangesTable},
		{"changes_csv.golden", ChangesCSV},
		{"changes_json.golden", ChangesJSON},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := c.render(&b, cs); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, c.name, b.Bytes())
		})
	}
	var empty bytes.Buffer
	if err := ChangesTable(&empty, nil); err != nil || empty.String() != "no change points\n" {
		t.Errorf("empty table = %q, %v", empty.String(), err)
	}
}

// formulaCells returns the cells of CSV text, read with separator sep as
// a spreadsheet set to that dialect reads it, that a spreadsheet would run
// as a formula: starting with =, +, - or @ and not a number.
func formulaCells(t *testing.T, text string, sep rune) []string {
	t.Helper()
	r := csv.NewReader(strings.NewReader(text))
	r.Comma, r.FieldsPerRecord, r.LazyQuotes = sep, -1, true
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatalf("reading with %q: %v", sep, err)
	}
	var out []string
	for _, row := range rows {
		for _, c := range row {
			if _, err := strconv.ParseFloat(c, 64); err != nil && c != "" && strings.ContainsRune("=+-@", rune(c[0])) {
				out = append(out, c)
			}
		}
	}
	return out
}

// TestTrendCSVDefusesFormulas: text from the results (suite, name, unit,
// run id, commit, branch, testbed) starting with =, +, - or @ reaches
// trend's CSV and --changes CSV defused, and a semicolon inside a name
// cannot start a cell in a semicolon-separated reading (issue 28, item 4:
// they were written as they were).
func TestTrendCSVDefusesFormulas(t *testing.T) {
	se := hourly(model.Lower, joined(flatRuns, 1.0, flatRuns, 1.3)...)
	se.Suite, se.Name, se.Unit = "=cmd|' /C calc'!A0", "+x;=1+1", "-ns"
	for i := range se.Points {
		r := &se.Points[i].Run
		r.ID, r.Commit, r.Branch, r.Testbed = "=HYPERLINK(\"http://x\")", "@SUM(1)", "-main", "=bed"
	}
	all := trend.Analyze([]model.TrendSeries{se}, trend.DefaultOptions())
	if len(all[0].Steps) == 0 {
		t.Fatal("no step: the --changes CSV would be empty")
	}
	var points, changes bytes.Buffer
	if err := TrendCSV(&points, all); err != nil {
		t.Fatal(err)
	}
	if err := ChangesCSV(&changes, trend.Changes(all)); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"trend": points.String(), "changes": changes.String()} {
		for _, sep := range []rune{',', ';', '\t'} {
			if bad := formulaCells(t, text, sep); len(bad) > 0 {
				t.Errorf("%s CSV read with %q has formula cells %q:\n%s", name, sep, bad, text)
			}
		}
	}
}

// TestTrendTableLinear: printing a trend's table is linear in its points
// (the columns are sized in one pass and padded in another, textcol.Write).
func TestTrendTableLinear(t *testing.T) {
	scaletest.Linear(t, scaletest.Case{N: 5000, Setup: func(n int) func() {
		medians := make([]float64, n)
		for i := range medians {
			medians[i] = flatRuns[i%len(flatRuns)]
		}
		se := []trend.Series{{TrendSeries: hourly(model.Lower, medians...)}}
		return func() {
			if err := TrendTable(io.Discard, se); err != nil {
				t.Fatal(err)
			}
		}
	}})
}

package trend

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

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

// TestCSVDefusesFormulas: text from the results (suite, name, unit, run
// id, commit, branch, testbed) starting with =, +, - or @ reaches trend's
// CSV and --changes CSV defused, and a semicolon inside a name cannot
// start a cell in a semicolon-separated reading (issue 28, item 4: they
// were written as they were).
func TestCSVDefusesFormulas(t *testing.T) {
	se := series(model.Lower, cat(noisy, shift(noisy, 1.3))...)
	se.Suite, se.Name, se.Unit = "=cmd|' /C calc'!A0", "+x;=1+1", "-ns"
	for i := range se.Points {
		r := &se.Points[i].Run
		r.ID, r.Commit, r.Branch, r.Testbed = "=HYPERLINK(\"http://x\")", "@SUM(1)", "-main", "=bed"
	}
	all := Analyze([]model.TrendSeries{se}, DefaultOptions())
	if len(all[0].Steps) == 0 {
		t.Fatal("no step: the --changes CSV would be empty")
	}
	var points, changes bytes.Buffer
	if err := CSV(&points, all); err != nil {
		t.Fatal(err)
	}
	if err := ChangesCSV(&changes, Changes(all)); err != nil {
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

package report

import (
	"bytes"
	"encoding/csv"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/internal/golden"
	"github.com/perfgate/perfgate/tracker/model"
)

func TestCSV(t *testing.T) {
	c := mixed(t)
	var b bytes.Buffer
	if err := CSV(&b, c); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "mixed.csv", b.String())
	rows, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
	if err != nil || len(rows) != len(c.Results)+1 {
		t.Fatalf("%d rows (%v), want a header and %d", len(rows), err, len(c.Results))
	}
	for _, c := range []struct{ in, want string }{{"=HYPERLINK(x)", "'=HYPERLINK(x)"}, {"-1+1", "'-1+1"}, {"add", "add"}, {"", ""}} {
		if got := cell(c.in); got != c.want {
			t.Errorf("cell(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestCSVSeparatorFormula: a name holding a semicolon and a formula
// (issue 28, item 4: "x;=1+1" was written unquoted) starts no formula
// cell however a spreadsheet splits the file: by commas, semicolons or
// tabs.
func TestCSVSeparatorFormula(t *testing.T) {
	c := mixed(t)
	c.Results[0].Suite, c.Results[0].Name, c.Results[1].Name = "x;=1+1", "a\t@SUM(1)", "b;-2+3"
	var b bytes.Buffer
	if err := CSV(&b, c); err != nil {
		t.Fatal(err)
	}
	for _, sep := range []rune{',', ';', '\t'} {
		r := csv.NewReader(strings.NewReader(b.String()))
		r.Comma, r.FieldsPerRecord, r.LazyQuotes = sep, -1, true
		rows, err := r.ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range rows {
			for _, cell := range row {
				if _, err := strconv.ParseFloat(cell, 64); err != nil && cell != "" && strings.ContainsRune("=+-@", rune(cell[0])) {
					t.Errorf("read with %q, a cell is a formula: %q", sep, cell)
				}
			}
		}
	}
}

func TestLaTeX(t *testing.T) {
	var b bytes.Buffer
	if err := LaTeX(&b, mixed(t)); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "mixed.tex", b.String())
	if got, want := latexText(`a_b&c%\x{$}^~#`), `a\_b\&c\%\textbackslash{}x\{\$\}\textasciicircum{}\textasciitilde{}\#`; got != want {
		t.Errorf("latexText = %q, want %q", got, want)
	}
}

// TestLaTeXBracketRow: a row starting with "[" follows the \\ that ends
// the row before it, which reads it as its optional argument (issue 28,
// item 11: a benchmark "[oops]/x" failed pdflatex). No "[" may follow a
// \\, and brackets in names are set in braces.
func TestLaTeXBracketRow(t *testing.T) {
	c := mixed(t)
	for i := range c.Results {
		c.Results[i].Suite = "[oops]"
	}
	var b bytes.Buffer
	if err := LaTeX(&b, c); err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`\\\\\s*\[`).FindString(b.String()); m != "" {
		t.Errorf("a row starts with [ after \\\\:\n%s", b.String())
	}
	if got := latexText("[oops]/x"); got != "{[}oops{]}/x" {
		t.Errorf("latexText = %q", got)
	}
}

func TestRunSummary(t *testing.T) {
	r := run("r1", "a", "main", 19, envMain,
		bm("elementwise", "add/fp32/n=16777216", "ns", model.Lower, seq(1000, 10, 10)),
		bm("gemm", "bf16|<b>", "us", model.Lower, []float64{1, 2, 3, 4, 100}),
		bm("gemm", "big", "ns", model.Lower, []float64{278300, 278300, 278300}),
		bm("gemm", "rate", "items/s", model.Higher, []float64{2.5e7, 2.5e7, 2.5e7}))
	broken := bm("gemm", "broken", "us", model.Lower, nil)
	broken.Error = "CUDA_ERROR_ILLEGAL_ADDRESS"
	r.Benchmarks = append(r.Benchmarks, broken)
	got := RunSummary([]*model.Results{r})
	golden.Check(t, "summary.md", got)
	// seq(1000, 10, 10): mean 1045, median 1045, std 30.28 (R: sd(seq(1000, 1090, 10)) = 30.2765),
	// p95 1085.5 and p99 1089.1 (R: quantile(seq(1000, 1090, 10), c(.95, .99)), type 7).
	// Values in plain units, never e-notation ("2.783e+05": issue 30).
	nb := "\u00a0"
	if strings.Contains(got, "e+") {
		t.Errorf("the summary shows e-notation:\n%s", got)
	}
	for _, want := range []string{"| 10 | 1.045" + nb + "µs | 1.045" + nb + "µs | 30.28" + nb + "ns | 1.085" + nb + "µs | 1.089" + nb + "µs | 1.000" + nb + "µs | 1.090" + nb + "µs |",
		"| 278.3" + nb + "µs | 278.3" + nb + "µs |", "| 25.00M" + nb + "items/\u2060s |", "error: CUDA\\_<wbr>ERROR\\_<wbr>ILLEGAL\\_<wbr>ADDRESS", "bf16\\|&lt;b&gt;"} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
}

package textcol

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"text/tabwriter"
)

// TestWriteIsTabwriter: Write prints what text/tabwriter prints for the
// same cells (minwidth 0, padding 2, padchar ' '), in both alignments,
// with and without the text after the columns, and with the trailing
// spaces of each line trimmed as perfgate compare's table did
// (strings.TrimRight of each line of tabwriter's output): multi-byte
// runes, invalid UTF-8, empty, all-space and 150-byte cells, rows of different
// lengths and the bytes tabwriter treats specially included.
func TestWriteIsTabwriter(t *testing.T) {
	rng := rand.New(rand.NewPCG(81, 82))
	for _, f := range []Format{
		{Align: Right}, {Align: Right, Text: true}, {Align: Right, Trim: true}, {Align: Right, Text: true, Trim: true},
		{Align: Left}, {Align: Left, Text: true}, {Align: Left, Trim: true}, {Align: Left, Text: true, Trim: true},
	} {
		t.Run(fmt.Sprintf("%+v", f), func(t *testing.T) {
			for i := range 500 {
				rows := randomRows(rng, i)
				var got bytes.Buffer
				if err := Write(&got, rows, f); err != nil {
					t.Fatal(err)
				}
				if want := reference(rows, f); got.String() != want {
					t.Fatalf("rows %q:\ngot\n%q\ntabwriter\n%q", rows, got.String(), want)
				}
			}
		})
	}
}

// randomRows makes 1 to 6 rows of 7 cells from a few pieces; half the
// tables have no byte tabwriter treats specially, and one in ten has a
// row of another length.
func randomRows(rng *rand.Rand, i int) [][]string {
	pieces := []string{"", "a", "2026-03-01 09:00Z", "1.234 µs", "+5.0% regression", "\xff\xfe", "\xfe", "日本", "x\ty", "l1\nl2", "v\vw", "f\fg", "  ", "a  ", " b", strings.Repeat("wide ", 30)}
	rows := make([][]string, 1+rng.IntN(6))
	for r := range rows {
		rows[r] = make([]string, 7)
		if i%10 == 5 && r == len(rows)/2 {
			rows[r] = make([]string, rng.IntN(9))
		}
		for c := range rows[r] {
			p := pieces[rng.IntN(len(pieces))]
			if i%2 == 0 && len(p) > 0 && (p[0] == 'x' || p[0] == 'l' || p[0] == 'v' || p[0] == 'f' || p[0] == 0xff) {
				p = "plain"
			}
			rows[r][c] = p
		}
	}
	return rows
}

// reference is the table as text/tabwriter writes it, each line then
// trimmed with strings.TrimRight when f.Trim.
func reference(rows [][]string, f Format) string {
	var flags uint
	if f.Align == Right {
		flags = tabwriter.AlignRight
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', flags)
	for _, row := range rows {
		for c, cell := range row {
			io.WriteString(tw, cell)
			if !f.Text || c < len(row)-1 {
				io.WriteString(tw, "\t")
			}
		}
		io.WriteString(tw, "\n")
	}
	tw.Flush()
	if !f.Trim {
		return b.String()
	}
	var out strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		out.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	return out.String()
}

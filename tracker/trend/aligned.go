package trend

import (
	"io"
	"text/tabwriter"
	"unicode/utf8"
)

// writeRightAligned writes rows as text/tabwriter does with minwidth 0,
// padding 2, padchar ' ' and AlignRight when every cell ends in a tab:
// each column as wide as its widest cell (in runes) plus two, each cell
// right-aligned in it. It is the table of perfgate trend, 10,000 rows of a
// long history: tabwriter's per-cell bookkeeping was a third of that
// command's CPU. A cell holding a byte tabwriter treats specially (tab,
// newline, vertical tab, form feed, its escape 0xff: text from a results
// file) sends the table through tabwriter itself, so the output is always
// tabwriter's.
func writeRightAligned(w io.Writer, rows [][]string) error {
	var width []int
	for _, row := range rows {
		for c, cell := range row {
			if !plainCell(cell) {
				return writeTabwriter(w, rows)
			}
			if c == len(width) {
				width = append(width, 0)
			}
			width[c] = max(width[c], utf8.RuneCountInString(cell))
		}
	}
	buf := make([]byte, 0, 64<<10)
	for _, row := range rows {
		for c, cell := range row {
			for range width[c] + 2 - utf8.RuneCountInString(cell) {
				buf = append(buf, ' ')
			}
			buf = append(buf, cell...)
		}
		buf = append(buf, '\n')
		if len(buf) > 60<<10 {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	_, err := w.Write(buf)
	return err
}

func plainCell(s string) bool {
	for i := range len(s) {
		switch s[i] {
		case '\t', '\n', '\v', '\f', tabwriter.Escape:
			return false
		}
	}
	return true
}

func writeTabwriter(w io.Writer, rows [][]string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, row := range rows {
		for _, cell := range row {
			io.WriteString(tw, cell)
			io.WriteString(tw, "\t")
		}
		io.WriteString(tw, "\n")
	}
	return tw.Flush()
}

// Package textcol writes rows of text cells as columns, byte for byte as
// text/tabwriter does with minwidth 0, padding 2 and padchar ' ', without
// its per-cell bookkeeping: tabwriter was a third of the CPU of perfgate
// trend over 10,000 rows, and its output copied twice more a seventh of
// perfgate compare's (docs/speed.md, issue 12). It imports only the
// standard library.
package textcol

import (
	"bytes"
	"io"
	"text/tabwriter"
	"unicode/utf8"
)

// An Align says where a cell sits in its column, as tabwriter's
// AlignRight flag does.
type Align int

// The alignments.
const (
	Left Align = iota
	Right
)

// A Format says how a table is laid out.
type Format struct {
	Align Align
	// Text makes the last cell of each row the text after the columns,
	// written as it is (what follows a line's last tab in tabwriter's
	// input), rather than a column: every other cell ends in a tab.
	Text bool
	// Trim drops the spaces at the end of each line, a cell's own
	// trailing spaces included.
	Trim bool
}

// Write writes rows to w as text/tabwriter does for the lines the rows
// make, each cell followed by a tab but the last when f.Text, each row by
// a newline: each column as wide as its widest cell in runes, plus two.
// A cell holding a byte tabwriter treats specially (tab, newline, vertical
// tab, form feed, its escape 0xff: text from a results file), or rows of
// different lengths (tabwriter's columns then end where a shorter row
// stops them), send the table through tabwriter itself, so the output is
// always tabwriter's.
func Write(w io.Writer, rows [][]string, f Format) error {
	width, ok := widths(rows, f.Text)
	if !ok {
		return writeTabwriter(w, rows, f)
	}
	buf := make([]byte, 0, 64<<10)
	for _, row := range rows {
		start := len(buf)
		for c, cell := range row {
			if c == len(width) { // the text after the columns
				buf = append(buf, cell...)
				break
			}
			pad := width[c] + 2 - utf8.RuneCountInString(cell)
			if f.Align == Left {
				buf = append(buf, cell...)
			}
			for pad > 0 {
				n := min(pad, len(spaces))
				buf = append(buf, spaces[:n]...)
				pad -= n
			}
			if f.Align == Right {
				buf = append(buf, cell...)
			}
		}
		if f.Trim {
			buf = trimSpaces(buf, start)
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

const spaces = "                                                                "

// widths returns the width in runes of each column's widest cell, and
// false where Write must leave the table to tabwriter.
func widths(rows [][]string, text bool) ([]int, bool) {
	if len(rows) == 0 {
		return nil, true
	}
	n := len(rows[0])
	if text && n > 0 {
		n--
	}
	width := make([]int, n)
	for _, row := range rows {
		if len(row) != len(rows[0]) {
			return nil, false
		}
		for c, cell := range row {
			if !plain(cell) {
				return nil, false
			}
			if c < n {
				width[c] = max(width[c], utf8.RuneCountInString(cell))
			}
		}
	}
	return width, true
}

func plain(s string) bool {
	for i := range len(s) {
		switch s[i] {
		case '\t', '\n', '\v', '\f', tabwriter.Escape:
			return false
		}
	}
	return true
}

// trimSpaces drops the spaces at the end of buf[start:].
func trimSpaces(buf []byte, start int) []byte {
	for len(buf) > start && buf[len(buf)-1] == ' ' {
		buf = buf[:len(buf)-1]
	}
	return buf
}

// writeTabwriter writes rows through text/tabwriter itself.
func writeTabwriter(w io.Writer, rows [][]string, f Format) error {
	var flags uint
	if f.Align == Right {
		flags = tabwriter.AlignRight
	}
	var out bytes.Buffer
	tw := tabwriter.NewWriter(&out, 0, 0, 2, ' ', flags)
	for _, row := range rows {
		for c, cell := range row {
			io.WriteString(tw, cell)
			if !f.Text || c < len(row)-1 {
				io.WriteString(tw, "\t")
			}
		}
		io.WriteString(tw, "\n")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	b := out.Bytes()
	if f.Trim {
		b = trimLines(b)
	}
	_, err := w.Write(b)
	return err
}

// trimLines drops the spaces before each newline of b, and at its end.
func trimLines(b []byte) []byte {
	out := b[:0] // in place: out never passes the line being read
	for len(b) > 0 {
		line, rest, nl := bytes.Cut(b, []byte{'\n'})
		start := len(out)
		out = append(out, line...)
		out = trimSpaces(out, start)
		if nl {
			out = append(out, '\n')
		}
		b = rest
	}
	return out
}

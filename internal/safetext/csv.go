package safetext

import (
	"bufio"
	"io"
	"strings"
)

// A Writer writes CSV records as encoding/csv's Writer does (RFC 4180,
// comma-separated, "\n" line ends), quoting a field also when it holds a
// semicolon or a tab: a spreadsheet set to read ";" or tab-separated
// files splits an unquoted "x;=1+1" into "x" and the formula "=1+1".
// Text from outside goes through Cell first.
type Writer struct {
	w   *bufio.Writer
	err error
}

// NewWriter returns a Writer writing to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriter(w)} }

// Cell defuses text from outside for a CSV cell: text a spreadsheet would
// run as a formula (starting with =, +, -, @, a tab or a carriage return,
// OWASP's list) gets a leading apostrophe, which spreadsheets show as text;
// so does such text after a semicolon or a tab inside the cell, where a
// spreadsheet reading the file as semicolon- or tab-separated starts a
// cell (quoting the field does not help there: its quote is not at the
// start of that dialect's field). Numbers perfgate formats itself do not
// go through it ("-0.05" stays a number).
func Cell(s string) string {
	starts := func(i int) bool { return i < len(s) && strings.IndexByte(formulaStart, s[i]) >= 0 }
	if !starts(0) && !strings.ContainsAny(s, ";\t") {
		return s
	}
	var b strings.Builder
	if starts(0) {
		b.WriteByte('\'')
	}
	for i := 0; i < len(s); i++ {
		b.WriteByte(s[i])
		if (s[i] == ';' || s[i] == '\t') && starts(i+1) {
			b.WriteByte('\'')
		}
	}
	return b.String()
}

// formulaStart are the first bytes of a cell a spreadsheet runs.
const formulaStart = "=+-@\t\r"

// Write writes one record.
func (w *Writer) Write(record []string) error {
	if w.err != nil {
		return w.err
	}
	for i, f := range record {
		if i > 0 {
			w.w.WriteByte(',')
		}
		if !needsQuotes(f) {
			w.w.WriteString(f)
			continue
		}
		w.w.WriteByte('"')
		w.w.WriteString(strings.ReplaceAll(f, `"`, `""`))
		w.w.WriteByte('"')
	}
	_, w.err = w.w.WriteString("\n")
	return w.err
}

// Flush writes any buffered data; Error reports the first error.
func (w *Writer) Flush() {
	if err := w.w.Flush(); w.err == nil {
		w.err = err
	}
}

// Error returns the first error of a write or flush.
func (w *Writer) Error() error { return w.err }

// needsQuotes reports whether f must be quoted: encoding/csv's rule
// (a comma, quote, CR or LF, a leading space, or `\.`), plus a semicolon
// or a tab anywhere.
func needsQuotes(f string) bool {
	if f == "" {
		return false
	}
	return f == `\.` || strings.ContainsAny(f, ",\"\r\n;\t") || f[0] == ' '
}

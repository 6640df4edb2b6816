package action

import (
	"bytes"
	"io"
	"strings"
	"unicode"
)

// A LogWriter passes text to the job log so that no line of it is a
// workflow command. The runner treats a line (split at "\n" or "\r") as a
// command when, after leading white space, it starts with "::", and looks
// for the legacy "##[" anywhere in it; benchmark names, run ids, file
// names, error messages and benchmark commands' output all pass through
// here, so "::stop-commands::x" or "x\n::error::forged" print as text.
// perfgate's own commands are written to the log beneath it, never
// through it. Text is passed on a line at a time; Flush sends the rest.
type LogWriter struct {
	w   io.Writer
	buf []byte
}

// maxLogLine is the longest partial line held back before it is passed
// on (and treated as ended).
const maxLogLine = 64 << 10

// NewLogWriter returns a LogWriter writing to w.
func NewLogWriter(w io.Writer) *LogWriter { return &LogWriter{w: w} }

func (l *LogWriter) Write(p []byte) (int, error) {
	l.buf = append(l.buf, p...)
	end := bytes.LastIndexAny(l.buf, "\r\n")
	if end < 0 && len(l.buf) < maxLogLine {
		return len(p), nil
	}
	if end < 0 {
		end = len(l.buf) - 1
	}
	out := neutraliseLog(string(l.buf[:end+1]))
	l.buf = append(l.buf[:0], l.buf[end+1:]...)
	if _, err := io.WriteString(l.w, out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush passes on a last line that has no line break.
func (l *LogWriter) Flush() error {
	if len(l.buf) == 0 {
		return nil
	}
	out := neutraliseLog(string(l.buf))
	l.buf = l.buf[:0]
	_, err := io.WriteString(l.w, out)
	return err
}

// neutraliseLog makes every line of s plain text for the runner: a line
// that would start with "::" gets "| " first, and "##[" becomes "## [".
func neutraliseLog(s string) string {
	var b strings.Builder
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != '\n' && s[i] != '\r' {
			continue
		}
		line := s[start:i]
		if strings.HasPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "::") {
			b.WriteString("| ")
		}
		b.WriteString(strings.ReplaceAll(line, "##[", "## ["))
		if i < len(s) {
			b.WriteByte(s[i])
		}
		start = i + 1
	}
	return b.String()
}

package action

import (
	"bytes"
	"strings"
	"testing"
)

func TestLogWriter(t *testing.T) {
	tests := []struct {
		name   string
		writes []string
		want   string
	}{
		{"plain lines pass", []string{"perfgate: verdict pass\n", "a::b\n"}, "perfgate: verdict pass\na::b\n"},
		{"a command at a line start", []string{"::stop-commands::x\n"}, "| ::stop-commands::x\n"},
		{"after a newline inside one write", []string{"name x\n::error title=forged::pwned\n"}, "name x\n| ::error title=forged::pwned\n"},
		{"after a carriage return", []string{"x\r::warning::w\n"}, "x\r| ::warning::w\n"},
		{"after leading white space", []string{" \t\u00a0::notice::n\n"}, "|  \t\u00a0::notice::n\n"},
		{"split across writes", []string{"ok\n:", ":error::split", "\n"}, "ok\n| ::error::split\n"},
		{"legacy syntax anywhere", []string{"a ##[set-output name=verdict;]pass\n"}, "a ## [set-output name=verdict;]pass\n"},
		{"a last line without a break", []string{"::add-mask::x"}, "| ::add-mask::x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			w := NewLogWriter(&out)
			for _, s := range tt.writes {
				if n, err := w.Write([]byte(s)); err != nil || n != len(s) {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			if out.String() != tt.want {
				t.Errorf("got %q, want %q", out.String(), tt.want)
			}
		})
	}
	var out bytes.Buffer
	w := NewLogWriter(&out)
	w.Write([]byte(strings.Repeat("y", maxLogLine) + "::z"))
	if out.Len() < maxLogLine {
		t.Errorf("a %d-byte line without a break was held back", maxLogLine)
	}
}

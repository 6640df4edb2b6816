package action

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestMarker(t *testing.T) {
	tests := []struct{ workflow, job, want string }{
		{"perf", "gate", "<!-- perfgate:sticky workflow=perf job=gate -->"},
		{"GPU perf --> x", "bench-a100", "<!-- perfgate:sticky workflow=GPU%20perf%20%2D%2D%3E%20x job=bench%2Da100 -->"},
	}
	for _, tt := range tests {
		t.Run(tt.workflow, func(t *testing.T) {
			got := Marker(tt.workflow, tt.job)
			if got != tt.want {
				t.Errorf("Marker = %q, want %q", got, tt.want)
			}
			if strings.Count(got, "--") != 2 || strings.Count(got, ">") != 1 {
				t.Errorf("Marker %q could close the HTML comment early", got)
			}
		})
	}
}

func TestFitComment(t *testing.T) {
	m := Marker("perf", "gate")
	line := strings.Repeat("é", 99) + "\n" // multi-byte: the limit counts characters
	tests := []struct {
		name      string
		body      string
		truncated bool
	}{
		{"small", "| a | b |\n", false},
		{"exactly at the limit", strings.Repeat("y", MaxCommentChars-utf8.RuneCountInString(m)-1), false},
		{"over the limit", strings.Repeat(line, 1000), true},
		{"one long line", strings.Repeat("z", 3*MaxCommentChars), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := FitComment(m, tt.body, "The full report is in the job summary: https://x/runs/1")
			if n := utf8.RuneCountInString(got); n > MaxCommentChars {
				t.Errorf("%d characters, over the limit", n)
			}
			if !strings.HasPrefix(got, m+"\n") {
				t.Error("the marker is not first")
			}
			if trunc := strings.Contains(got, "**Truncated**"); trunc != tt.truncated {
				t.Errorf("truncated = %v, want %v", trunc, tt.truncated)
			}
			if tt.truncated && !strings.Contains(got, "https://x/runs/1") {
				t.Error("no pointer to the full report")
			}
			if tt.name == "over the limit" && !strings.Contains(got, strings.TrimSuffix(line, "\n")+"\n\n---") {
				t.Error("not cut at a line boundary")
			}
		})
	}
}

func TestParseCommentPolicy(t *testing.T) {
	for in, want := range map[string]CommentPolicy{"": CommentAlways, "always": CommentAlways, "on-change": CommentOnChange, "never": CommentNever} {
		if got, err := ParseCommentPolicy(in); err != nil || got != want {
			t.Errorf("ParseCommentPolicy(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseCommentPolicy("sometimes"); err == nil || !strings.Contains(err.Error(), "comment:") {
		t.Errorf("err = %v, want one naming the comment input", err)
	}
}

package safetext

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
)

func TestCell(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"add", "add"}, {"", ""}, {"=HYPERLINK(x)", "'=HYPERLINK(x)"}, {"-1+1", "'-1+1"}, {"@a", "'@a"},
		{"x;=1+1", "x;'=1+1"}, {"x;y", "x;y"}, {"x\t+1;-2", "x\t'+1;'-2"}, {"+a;@b", "'+a;'@b"},
	} {
		if got := Cell(c.in); got != c.want {
			t.Errorf("Cell(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestNoBidi(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"gemm/n=4096", "gemm/n=4096"},
		{"a\u202eb", "a?b"},
		{"\u2066x\u2069\u200f\u200e\u061c", "?x????"},
		{"عربي", "عربي"}, // right-to-left letters are not controls
	} {
		if got := NoBidi(c.in); got != c.want {
			t.Errorf("NoBidi(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestWriter: what encoding/csv writes, and quoted where a field holds a
// semicolon or a tab; encoding/csv reads every record back.
func TestWriter(t *testing.T) {
	records := [][]string{
		{"suite", "name", "-0.05"},
		{Cell("=1+1"), Cell("x;=1+1"), Cell("@SUM(A1)")},
		{Cell("-cmd"), "a\tb", `q"uote`},
		{" lead", "multi\nline", `\.`},
		{"", "plain", Cell("+1")},
	}
	var got, ref bytes.Buffer
	w := NewWriter(&got)
	cw := csv.NewWriter(&ref)
	for _, r := range records {
		w.Write(r)
		cw.Write(r)
	}
	w.Flush()
	cw.Flush()
	if w.Error() != nil {
		t.Fatal(w.Error())
	}
	want := strings.NewReplacer("x;'=1+1", `"x;'=1+1"`, "a\tb", "\"a\tb\"").Replace(ref.String())
	if got.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", got.String(), want)
	}
	back, err := csv.NewReader(&got).ReadAll()
	if err != nil || len(back) != len(records) || back[1][0] != "'=1+1" || back[1][1] != "x;'=1+1" || back[2][0] != "'-cmd" {
		t.Errorf("read back %q, %v", back, err)
	}
}

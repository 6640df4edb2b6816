package report

import (
	"strings"
	"testing"
)

func TestWithPreRunNotes(t *testing.T) {
	doc := "<!-- m -->\n### perfgate: ✅ No regression\n\nbody\n"
	got := WithPreRunNotes(doc, []string{"other processes are using the GPU (42 evil|`name`<b>)"})
	want := "<!-- m -->\n### perfgate: ✅ No regression\n\n> [!WARNING]\n> **Pre-run checks** (perfgate doctor, before measuring; measured anyway):\n" +
		"> - other processes are using the GPU (42 evil\\|\\`name\\`&lt;b&gt;)\n\nbody\n"
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	if WithPreRunNotes(doc, nil) != doc {
		t.Error("no warnings changed the report")
	}
	if !strings.HasSuffix(WithPreRunNotes("no heading", []string{"x"}), "\nno heading") {
		t.Error("a report without a heading lost its text")
	}
}

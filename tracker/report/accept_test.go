package report

import (
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/internal/golden"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
)

// TestAcceptedGolden: the confirmed check's regressions, k/held accepted by
// a glob and k/gone by name (a reason with Markdown in it), render as
// accepted rows with who and why, under a list of the acceptances (one of
// them covering nothing), and the verdict line says no regression is left.
func TestAcceptedGolden(t *testing.T) {
	c, conf := confirmed(t)
	at := time.Date(2026, 11, 27, 10, 19, 0, 0, time.UTC)
	accs := []model.Acceptance{
		{Repo: "o/r", PR: 7, Glob: "k/held", Who: "octocat", Reason: "fp32 accumulation: correct, and 20% slower", At: at},
		{Repo: "o/r", PR: 7, Glob: "k/g*", Who: "hubot", Reason: "removed in **this** PR | <b>", At: at.Add(time.Minute)},
		{Repo: "o/r", PR: 7, Glob: "io/*", Who: "hubot", At: at.Add(2 * time.Minute)},
	}
	if n := compare.Accept(c, accs); n != 2 {
		t.Fatalf("Accept = %d, want 2", n)
	}
	md := Markdown(c, Options{Title: "perfgate", Confirmation: conf, Acceptances: accs})
	golden.Check(t, "accepted.md", md)
	for _, want := range []string{
		"### perfgate: ⚠️ No regression found, some inconclusive: 4 benchmarks · 2 accepted regressions · 1 not yet gateable",
		"#### ☑️ Accepted regressions (2)",
		"accepted by @\u200doctocat (k/held): fp32 accumulation: correct, and 20% slower",
		"| <code>io/\\*</code> | @\u200dhubot | 2026-11-27 10:21Z | (no reason given) | 0 |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q", want)
		}
	}
	if strings.Contains(md, "<b>") || strings.Contains(md, "**this**") {
		t.Error("the reason's Markdown or HTML reached the report unescaped")
	}
	if o, fails := c.Gate(); o != compare.OutcomeInconclusive || fails {
		t.Errorf("gate = %s %v, want inconclusive (k/flaky|pipe), not failing", o, fails)
	}
	clean := &compare.Comparison{Results: []compare.Result{{Suite: "k", Name: "held", Verdict: compare.Accepted}, {Suite: "k", Name: "same", Verdict: compare.Unchanged}}}
	clean.Summary = compare.Summarize(clean.Results)
	if got, want := VerdictLine(clean), "☑️ No regression left: 2 benchmarks · 1 accepted regression · 1 unchanged"; !strings.HasPrefix(got, want) {
		t.Errorf("VerdictLine = %q, want it to start %q", got, want)
	}
}

package report

import (
	"strings"
	"testing"

	"github.com/perfgate/perfgate/internal/golden"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/confirm"
	"github.com/perfgate/perfgate/tracker/model"
)

// confirmed is a check with three regressions re-run in 3 rounds: k/held
// is 20% slower in every round, k/flaky|pipe was 15% slower in the first
// rounds only, and k/gone is missing from the re-run.
func confirmed(t *testing.T) (*compare.Comparison, *confirm.Confirmation) {
	t.Helper()
	b := seq(100, 1, 10)
	runs := func(prefix string, day, n int, held, flaky float64, gone bool) []*model.Results {
		var rs []*model.Results
		for i := range n {
			bs := []model.Benchmark{bm("k", "held", "us", model.Lower, scale(b, held)), bm("k", "flaky|pipe", "us", model.Lower, scale(b, flaky)),
				bm("k", "same", "us", model.Lower, b)}
			if gone {
				bs = append(bs, bm("k", "gone", "us", model.Lower, scale(b, 1.1*held)))
			}
			rs = append(rs, run(prefix+string(rune('1'+i)), "c", "main", day+i, nil, bs...))
		}
		return rs
	}
	base := runs("main-", 1, 3, 1, 1, true)
	first := runs("pr-r", 10, 3, 1.2, 1.15, true)
	rerun := runs("pr-c", 20, 3, 1.2, 1, false)
	for _, r := range rerun {
		r.Benchmarks = r.Benchmarks[:2] // only the regressions are re-run
	}
	opt := compare.DefaultOptions()
	c1, err1 := compare.Compare(base, first, opt)
	c2, err2 := compare.Compare(base, rerun, opt)
	c3, err3 := compare.Compare(base, append(append([]*model.Results(nil), first...), rerun...), opt)
	if err1 != nil || err2 != nil || err3 != nil {
		t.Fatal(err1, err2, err3)
	}
	if c1.Summary.Regressions != 3 {
		for _, r := range c1.Results {
			t.Log(r.Name, r.Verdict, r.Change, r.Reason)
		}
		t.Fatalf("the first check has %d regressions, want 3", c1.Summary.Regressions)
	}
	return confirm.Apply(c1, c2, c3, 3, nil)
}

func TestConfirmationGolden(t *testing.T) {
	c, conf := confirmed(t)
	if conf.Held() != 2 || c.Summary.Regressions != 2 {
		t.Fatalf("held %d, regressions %d; want k/held and k/gone to stand", conf.Held(), c.Summary.Regressions)
	}
	md := Markdown(c, Options{Title: "perfgate", Confirmation: conf})
	golden.Check(t, "confirmed.md", md)
	golden.Check(t, "confirmed.txt", Text(c)+ConfirmText(conf))
	for _, want := range []string{"#### 🔁 Confirmation (2 held, 1 not confirmed)", "<code>k/flaky\\|pipe</code>", "✅ not confirmed, now not yet gateable",
		"❌ stands, not re-run: the re-run did not produce it"} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q", want)
		}
	}
	if !strings.Contains(Markdown(c, Options{Confirmation: conf, MaxBytes: 1500}), "Confirmation (2 held") {
		t.Error("a shortened report dropped the confirmation")
	}
}

func TestConfirmationFailed(t *testing.T) {
	c, _ := confirmed(t)
	conf := confirm.Failed(c, 3, "round 1/3, k: perfgate run exited with status 3")
	md, txt := confirmMarkdown(conf), ConfirmText(conf)
	if !strings.Contains(md, "⚠️ The re-run failed (round 1/3, k: perfgate run exited with status 3): every regression stands unconfirmed") ||
		!strings.Contains(txt, "the re-run failed") {
		t.Errorf("markdown:\n%s\ntext:\n%s", md, txt)
	}
	if confirmMarkdown(nil) != "" || ConfirmText(nil) != "" {
		t.Error("no confirmation renders something")
	}
}

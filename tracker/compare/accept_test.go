package compare

import (
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

// TestAccept: only regressions an acceptance covers become Accepted, the
// first covering acceptance names who and why, and the gate passes once
// every regression is accepted.
func TestAccept(t *testing.T) {
	c := &Comparison{Results: []Result{
		{Suite: "gemm", Name: "bf16/n=4096", Verdict: Regression},
		{Suite: "gemm", Name: "fp8/n=4096", Verdict: Regression},
		{Suite: "gemm", Name: "tf32", Verdict: Noisy},
		{Suite: "io", Name: "copy", Verdict: Regression},
	}}
	c.Summary = Summarize(c.Results)
	accs := []model.Acceptance{
		{Glob: "gemm/*", Who: "octocat", Reason: "fp32 accumulation, correct and slower"},
		{Glob: "gemm/bf16", Who: "hubot"},
	}
	if n := Accept(c, accs); n != 2 {
		t.Errorf("Accept = %d, want 2", n)
	}
	want := []struct {
		v      Verdict
		reason string
	}{
		{Accepted, "accepted by @octocat (gemm/*): fp32 accumulation, correct and slower"},
		{Accepted, "accepted by @octocat (gemm/*): fp32 accumulation, correct and slower"},
		{Noisy, ""}, {Regression, ""},
	}
	for i, w := range want {
		if r := c.Results[i]; r.Verdict != w.v || r.Reason != w.reason {
			t.Errorf("%s/%s: %s %q, want %s %q", r.Suite, r.Name, r.Verdict, r.Reason, w.v, w.reason)
		}
	}
	if s := c.Summary; s.Accepted != 2 || s.Regressions != 1 || s.Noisy != 1 {
		t.Errorf("summary %+v, want 2 accepted, 1 regression, 1 noisy", s)
	}
	if o, fails := c.Summary.Gate(InconclusivePass); o != OutcomeFail || !fails {
		t.Errorf("gate with io/copy unaccepted = %s %v, want fail", o, fails)
	}
	Accept(c, []model.Acceptance{{Glob: "io", Who: "octocat"}})
	for _, p := range []struct {
		p    InconclusivePolicy
		want Outcome
	}{{InconclusivePass, OutcomePass}, {InconclusiveNeutral, OutcomeInconclusive}} {
		if o, fails := c.Summary.Gate(p.p); o != p.want || fails {
			t.Errorf("gate under %s with every regression accepted = %s %v, want %s, not failing", p.p, o, fails, p.want)
		}
	}
	only := Summary{Accepted: 1}
	if o, fails := only.Gate(InconclusiveFail); o != OutcomePass || fails {
		t.Errorf("one accepted regression alone under fail = %s %v, want pass", o, fails)
	}
}

// TestAcceptIsBounded: an acceptance that recorded a benchmark's change
// passes it while the change stays within the threshold of that one
// ((1+now)/(1+then) − 1 ≤ threshold), and leaves a larger regression
// standing, saying what was accepted; a benchmark it recorded no change
// for is covered by the glob alone.
func TestAcceptIsBounded(t *testing.T) {
	acc := model.Acceptance{Glob: "gemm/*", Who: "octocat", Changes: map[string]float64{"gemm/bf16": 0.18, "gemm/fp16": 0.18}}
	c := &Comparison{Results: []Result{
		{Suite: "gemm", Name: "bf16", Verdict: Regression, Change: 0.29, Threshold: 0.10}, // 1.29/1.18 = +9.3%
		{Suite: "gemm", Name: "fp16", Verdict: Regression, Change: 0.60, Threshold: 0.10}, // +35.6% beyond
		{Suite: "gemm", Name: "fp8", Verdict: Regression, Change: 0.40, Threshold: 0.10},  // not recorded: the glob
		{Suite: "io", Name: "copy", Verdict: Regression, Change: 0.15, Threshold: 0.10},   // not covered
	}}
	c.Summary = Summarize(c.Results)
	if n := Accept(c, []model.Acceptance{acc}); n != 2 {
		t.Errorf("Accept = %d, want 2", n)
	}
	want := []struct {
		v      Verdict
		reason string
	}{
		{Accepted, "accepted by @octocat (gemm/*)"},
		{Regression, "beyond what @octocat accepted (+18% then, +60% now)"},
		{Accepted, "accepted by @octocat (gemm/*)"},
		{Regression, ""},
	}
	for i, w := range want {
		if r := c.Results[i]; r.Verdict != w.v || r.Reason != w.reason {
			t.Errorf("%s/%s: %s %q, want %s %q", r.Suite, r.Name, r.Verdict, r.Reason, w.v, w.reason)
		}
	}
	// A second acceptance given at the larger change covers it.
	again := model.Acceptance{Glob: "gemm/fp16", Who: "hubot", Changes: map[string]float64{"gemm/fp16": 0.60}}
	c.Results[1].Reason = ""
	if n := Accept(c, []model.Acceptance{acc, again}); n != 1 || c.Results[1].Verdict != Accepted || c.Results[1].Reason != "accepted by @hubot (gemm/fp16)" {
		t.Errorf("with hubot's acceptance at +60%%: %d accepted, %s %q", n, c.Results[1].Verdict, c.Results[1].Reason)
	}
	got := AcceptedChanges(&Comparison{Results: []Result{
		{Suite: "gemm", Name: "bf16", Verdict: Regression, Change: 0.2},
		{Suite: "gemm", Name: "fp16", Verdict: Accepted, Change: 0.3},
		{Suite: "gemm", Name: "fp8", Verdict: Noisy, Change: 0.5},
		{Suite: "io", Name: "copy", Verdict: Regression, Change: 0.4},
	}}, "gemm/*")
	if len(got) != 2 || got["gemm/bf16"] != 0.2 || got["gemm/fp16"] != 0.3 {
		t.Errorf("AcceptedChanges = %v, want gemm/bf16 0.2 and gemm/fp16 0.3", got)
	}
}

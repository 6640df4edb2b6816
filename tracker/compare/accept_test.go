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

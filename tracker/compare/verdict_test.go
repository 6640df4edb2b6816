package compare

import (
	"math"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

// ev is Evidence without a test across runs.
func ev(change, lo, hi, pw, pb float64) Evidence {
	nan := math.NaN()
	return Evidence{change, lo, hi, pw, pb, nan, nan, nan, pw, pb, 0}
}

// TestDecide pins each boundary of the verdict rules at the defaults
// (threshold 10%, alpha 0.01). Every case is checkable by hand against the
// rules in the package documentation.
func TestDecide(t *testing.T) {
	nan := math.NaN()
	const sig, notSig = 0.001, 0.5
	tests := []struct {
		name    string
		e       Evidence
		want    Verdict
		whyHas  string
		whyNone bool
	}{
		{"significant and beyond threshold", ev(0.12, 0.11, 0.13, sig, 1), Regression, "", true},
		{"p just below alpha", ev(0.12, 0.11, 0.13, 0.00999, 1), Regression, "", true},
		{"p at alpha is not significant", ev(0.12, 0.11, 0.13, 0.01, 1), Warn, "not significant", false},
		{"change at threshold is not beyond it", ev(0.10, 0.09, 0.10, sig, 1), Unchanged, "", true},
		{"change just past threshold", ev(0.1001, 0.09, 0.10, sig, 1), Regression, "", true},
		{"significant 3% is unchanged", ev(0.03, 0.02, 0.04, sig, 1), Unchanged, "", true},
		{"significant 8% whose CI reaches past +10%", ev(0.08, 0.05, 0.11, sig, 1), Warn, "CI reaches past +10%", false},
		{"CI ending exactly at threshold", ev(0.08, 0.05, 0.10, sig, 1), Unchanged, "", true},
		{"large but not significant", ev(0.25, -0.05, 0.6, notSig, 0.9), Warn, "+25% beyond the threshold but not significant", false},
		{"improvement", ev(-0.12, -0.13, -0.11, 1, sig), Improvement, "", true},
		{"improvement judged on better p, not worse p", ev(-0.12, -0.13, -0.11, sig, notSig), Warn, "-12% beyond", false},
		{"regression judged on worse p, not better p", ev(0.12, 0.11, 0.13, notSig, sig), Warn, "+12% beyond", false},
		{"improvement at -threshold is not beyond it", ev(-0.10, -0.10, -0.09, 1, sig), Unchanged, "", true},
		{"CI reaches past -10%, faster before the adjustment", ev(-0.05, -0.11, -0.001, 1, 0.005), Warn, "CI reaches past -10%", false},
		{"CI reaches past -10% with no evidence: unchanged", ev(-0.05, -0.11, 0.01, 1, notSig), Unchanged, "", true},
		{"no ratio, significant", ev(nan, nan, nan, sig, 1), Warn, "no ratio", false},
		{"no ratio, not significant", ev(nan, nan, nan, notSig, notSig), Unchanged, "", true},
		{"no CI, small change", ev(0.02, nan, nan, notSig, notSig), Unchanged, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, why := Decide(tt.e, 0.10, 0.01)
			if v != tt.want {
				t.Errorf("Decide(%+v) = %s, want %s (why %q)", tt.e, v, tt.want, why)
			}
			if tt.whyNone && why != "" {
				t.Errorf("why = %q, want none", why)
			}
			if !strings.Contains(why, tt.whyHas) {
				t.Errorf("why = %q, want it to contain %q", why, tt.whyHas)
			}
		})
	}
}

// TestDecideZeroThreshold: with threshold 0 any significant change counts.
func TestDecideZeroThreshold(t *testing.T) {
	if v, _ := Decide(ev(0.001, 0.0005, 0.002, 0.001, 1), 0, 0.01); v != Regression {
		t.Errorf("got %s, want regression", v)
	}
	if v, _ := Decide(ev(0, 0, 0, 1, 1), 0, 0.01); v != Unchanged {
		t.Errorf("identical samples: got %s, want unchanged", v)
	}
}

func TestChangeOf(t *testing.T) {
	tests := []struct {
		ratio  float64
		better string
		want   float64
	}{
		{1.1, "lower", 0.1},        // time up 10%: 10% worse
		{0.9, "lower", -0.1},       // time down 10%: 10% better
		{1 / 1.1, "higher", 0.1},   // throughput at 1/1.1: the same slowdown as time ×1.1
		{0.9, "higher", 1/0.9 - 1}, // throughput down 10%: 11.1% worse
		{1.25, "higher", -0.2},     // throughput up 25%: time per unit of work down 20%
		{0, "lower", math.NaN()},
		{math.Inf(1), "lower", math.NaN()},
	}
	for _, tt := range tests {
		got := changeOf(tt.ratio, betterOf(tt.better))
		if math.IsNaN(tt.want) != math.IsNaN(got) || !math.IsNaN(got) && math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("changeOf(%v, %s) = %v, want %v", tt.ratio, tt.better, got, tt.want)
		}
	}
}

func TestPct(t *testing.T) {
	for f, want := range map[float64]string{0.1: "+10%", -0.1: "-10%", 0.125: "+12.5%", 0: "+0%"} {
		if got := pct(f); got != want {
			t.Errorf("pct(%v) = %q, want %q", f, got, want)
		}
	}
}

// TestDirectionDisagreement: when the baseline and the candidate declare
// opposite directions, the verdict is an error (a +20% time would otherwise
// pass as an improvement), unless an override pins the direction.
func TestDirectionDisagreement(t *testing.T) {
	b10 := seq(100, 1, 10)
	base := []*model.Results{results("b1", "a", bench("s", "t", "ns", model.Lower, b10))}
	cand := []*model.Results{results("c1", "b", bench("s", "t", "ns", model.Higher, scale(b10, 1.2)))}
	tests := []struct {
		name   string
		pin    model.Better
		want   Verdict
		reason string
	}{
		{"no override", "", Error, "the baseline says lower is better, the candidate higher"},
		{"pinned lower", model.Lower, Regression, ""},
		{"pinned higher", model.Higher, Improvement, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := DefaultOptions()
			if tt.pin != "" {
				o.Overrides = []Override{{Glob: "s/*", Threshold: -1, Better: tt.pin}}
			}
			r := byName(t, mustCompare(t, base, cand, o), "t")
			if r.Verdict != tt.want || !strings.Contains(r.Reason, tt.reason) {
				t.Errorf("%s %q, want %s with a reason containing %q", r.Verdict, r.Reason, tt.want, tt.reason)
			}
		})
	}
}

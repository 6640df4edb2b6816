package confirm

import (
	"math"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
)

func res(name string, v compare.Verdict, change float64) compare.Result {
	return compare.Result{Suite: "s", Name: name, Unit: "us", Verdict: v, Change: change, CILow: change - 0.01, CIHigh: change + 0.01,
		PValue: 0.001, PAdjusted: 0.002, PBetter: math.NaN(), PBetterAdjusted: math.NaN(), Threshold: 0.1}
}

func comparison(rs ...compare.Result) *compare.Comparison {
	return &compare.Comparison{Options: compare.DefaultOptions(), Results: rs, Summary: compare.Summarize(rs)}
}

func TestApply(t *testing.T) {
	reg, unch, warn, errv := compare.Regression, compare.Unchanged, compare.Warn, compare.Error
	missing := res("a", errv, math.NaN())
	missing.Reason = "in the baseline but missing from the candidate"
	tests := []struct {
		name                    string
		first, rerun, combined  []compare.Result
		skipped                 map[model.Key]string
		wantVerdicts            string // final verdicts of a, b, in order
		wantHeld                []bool
		wantReason, wantSkipped string // of a
	}{
		{"regression that holds",
			[]compare.Result{res("a", reg, 0.148), res("b", unch, 0.01)},
			[]compare.Result{res("a", reg, 0.151)},
			[]compare.Result{res("a", reg, 0.149), res("b", unch, 0.01)},
			nil, "regression unchanged", []bool{true}, "", ""},
		{"regression not confirmed: the re-run is unchanged",
			[]compare.Result{res("a", reg, 0.121), res("b", unch, 0.01)},
			[]compare.Result{res("a", unch, 0.012)},
			[]compare.Result{res("a", unch, 0.04), res("b", unch, 0.01)},
			nil, "unchanged unchanged", []bool{false}, "not confirmed: +12.1% in the first rounds, +1.2% in 3 re-run rounds", ""},
		{"combined evidence only warns: not a regression",
			[]compare.Result{res("a", reg, 0.13)},
			[]compare.Result{res("a", warn, 0.11)},
			[]compare.Result{res("a", warn, 0.12)},
			nil, "warn", []bool{false}, "not confirmed: +13.0% in the first rounds, +11.0% in 3 re-run rounds", ""},
		{"a benchmark that could not be re-run stands",
			[]compare.Result{res("a", reg, 0.2), res("b", reg, 0.3)},
			[]compare.Result{res("b", unch, 0)},
			[]compare.Result{res("a", reg, 0.2), res("b", unch, 0.05)},
			map[model.Key]string{{Suite: "s", Name: "a"}: "suite s is neither built in nor in the config"},
			"regression unchanged", []bool{true, false}, "", "suite s is neither built in nor in the config"},
		{"a benchmark the re-run lost stands",
			[]compare.Result{res("a", reg, 0.2)},
			[]compare.Result{missing},
			[]compare.Result{res("a", reg, 0.2)},
			nil, "regression", []bool{true}, "", "the re-run did not produce it: in the baseline but missing from the candidate"},
		{"the re-run alone reproduces it: it holds, whatever the pooled rounds say",
			[]compare.Result{res("a", reg, 0.245)},
			[]compare.Result{res("a", reg, 0.246)},
			[]compare.Result{res("a", compare.Noisy, 0.245)},
			nil, "regression", []bool{true}, "held: +24.5% in the first rounds, +24.6% in 3 re-run rounds", ""},
		{"other benchmarks keep their first verdict",
			[]compare.Result{res("a", reg, 0.2), res("b", unch, 0.08)},
			[]compare.Result{res("a", reg, 0.2)},
			[]compare.Result{res("a", reg, 0.2), res("b", reg, 0.11)},
			nil, "regression unchanged", []bool{true}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first := comparison(tt.first...)
			final, conf := Apply(first, comparison(tt.rerun...), comparison(tt.combined...), 3, tt.skipped)
			var verdicts []string
			for _, r := range final.Results {
				verdicts = append(verdicts, string(r.Verdict))
			}
			if got := strings.Join(verdicts, " "); got != tt.wantVerdicts {
				t.Errorf("final verdicts %q, want %q", got, tt.wantVerdicts)
			}
			if len(conf.Outcomes) != len(tt.wantHeld) {
				t.Fatalf("%d outcomes, want %d", len(conf.Outcomes), len(tt.wantHeld))
			}
			held := 0
			for i, o := range conf.Outcomes {
				if o.Held != tt.wantHeld[i] {
					t.Errorf("outcome %s: held %v, want %v", o.First.Name, o.Held, tt.wantHeld[i])
				}
				if o.Held {
					held++
				}
			}
			if final.Summary.Regressions != held || conf.Held() != held || final.Failed() != (held > 0) {
				t.Errorf("summary %d regressions, Held() %d; want %d", final.Summary.Regressions, conf.Held(), held)
			}
			if a := final.Results[0]; !strings.HasPrefix(a.Reason, tt.wantReason) {
				t.Errorf("reason of a %q, want prefix %q", a.Reason, tt.wantReason)
			}
			if got := conf.Outcomes[0].Skipped; got != tt.wantSkipped {
				t.Errorf("skipped %q, want %q", got, tt.wantSkipped)
			}
			if first.Results[0].Verdict != compare.Regression || first.Summary.Regressions == 0 {
				t.Error("Apply changed the first comparison")
			}
		})
	}
}

func TestTargetsAndFailed(t *testing.T) {
	c := comparison(res("a", compare.Regression, 0.2), res("b", compare.Improvement, -0.2), res("c", compare.Regression, 0.3))
	got := Targets(c)
	if len(got) != 2 || got[0].Name != "a" || got[1].Name != "c" {
		t.Errorf("Targets = %v, want a and c", got)
	}
	conf := Failed(c, 3, "round 1/3, s: perfgate run exited with status 3")
	if conf.Held() != 2 || conf.Failed == "" || conf.Outcomes[1].Skipped != "the re-run failed" {
		t.Errorf("Failed = %+v, want both regressions standing", conf)
	}
}

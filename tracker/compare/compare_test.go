package compare

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

func betterOf(s string) model.Better { return model.Better(s) }

// seq returns n values start, start+step, ….
func seq(start, step float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = start + float64(i)*step
	}
	return out
}

func scale(x []float64, f float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = v * f
	}
	return out
}

func bench(suite, name, unit string, better model.Better, samples []float64) model.Benchmark {
	return model.Benchmark{Suite: suite, Name: name, Unit: unit, Better: better, Samples: samples}
}

func results(id, commit string, bs ...model.Benchmark) *model.Results {
	return &model.Results{Schema: model.Schema, Run: model.Run{
		ID: id, Repo: "o/r", Commit: strings.Repeat(commit, 40), Branch: "main", Event: model.EventPush,
		Testbed: "h200", StartedAt: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC),
		Env: map[string]string{model.EnvGPU: "NVIDIA H200"},
	}, Benchmarks: bs}
}

// noisy is a baseline with a wide spread (CV about 30%).
var noisy = []float64{100, 60, 140, 80, 120, 70, 130, 90, 110, 150}

// fixture has one benchmark per verdict. base10 = 100, 101, …, 109 and a
// candidate that is base10 × 1.2 is completely separated from it: the
// exact one-sided p is 1/C(20, 10) = 1/184756 (R: wilcox.test(1.2*b, b,
// alternative="greater")$p.value with b <- 100:109), and the median of
// all pairwise ratios 1.2·b_j/b_i is exactly 1.2.
func fixture() (base, cand []*model.Results) {
	b10 := seq(100, 1, 10)
	broken := bench("fix", "broken", "ns", model.Lower, nil)
	broken.Error = "CUDA_ERROR_LAUNCH_FAILED"
	sumB := bench("fix", "summary", "ns", model.Lower, []float64{100, 101, 99})
	sumB.SummaryOnly = true
	sumC := bench("fix", "summary", "ns", model.Lower, []float64{130, 131, 129})
	sumC.SummaryOnly = true
	base = []*model.Results{results("b1", "a",
		bench("fix", "regress", "ns", model.Lower, b10),
		bench("fix", "improve", "ns", model.Lower, b10),
		bench("fix", "noisy", "ns", model.Lower, noisy),
		bench("fix", "few", "ns", model.Lower, b10),
		bench("fix", "broken", "ns", model.Lower, b10),
		bench("fix", "gone", "ns", model.Lower, b10),
		bench("fix", "flat", "ns", model.Lower, b10),
		bench("fix", "tput", "GB/s", model.Higher, seq(1000, 10, 10)),
		sumB,
	)}
	cand = []*model.Results{results("c1", "b",
		bench("fix", "tput", "GB/s", model.Higher, scale(seq(1000, 10, 10), 0.8)),
		bench("fix", "regress", "ns", model.Lower, scale(b10, 1.2)),
		bench("fix", "improve", "ns", model.Lower, scale(b10, 0.8)),
		bench("fix", "noisy", "ns", model.Lower, scale(noisy, 1.15)),
		bench("fix", "few", "ns", model.Lower, scale(b10[:3], 1.5)),
		broken,
		bench("fix", "new", "ns", model.Lower, b10),
		bench("fix", "flat", "ns", model.Lower, b10),
		sumC,
	)}
	return base, cand
}

func byName(t *testing.T, c *Comparison, name string) Result {
	t.Helper()
	for _, r := range c.Results {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no result for %q", name)
	return Result{}
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// withinOnly returns the default options with no assumed run-to-run
// spread: one run a side then has nothing across runs to test, and the
// p-values are the Mann-Whitney ones, pinned below.
func withinOnly() Options {
	o := DefaultOptions()
	o.RunSpreadPrior = 0
	return o
}

func TestCompareFixture(t *testing.T) {
	base, cand := fixture()
	c, err := Compare(base, cand, withinOnly())
	if err != nil {
		t.Fatal(err)
	}
	const exactP = 1.0 / 184756
	tests := []struct {
		name       string
		verdict    Verdict
		reasonHas  string
		change     float64 // NaN: expect NaN
		nb, nc     int
		summaryOnl bool
	}{
		{"regress", Regression, "", 0.2, 10, 10, false},
		{"improve", Improvement, "", -0.2, 10, 10, false},
		{"noisy", Warn, "more samples per side would decide it", 0.15, 10, 10, false},
		{"few", Insufficient, "only 3 candidate samples; at least 5 per side needed", math.NaN(), 10, 3, false},
		{"broken", Error, "CUDA_ERROR_LAUNCH_FAILED", math.NaN(), 10, 0, false},
		{"gone", Error, "missing from the candidate", math.NaN(), 10, 0, false},
		{"new", Insufficient, "new benchmark", math.NaN(), 0, 10, false},
		{"flat", Unchanged, "", 0, 10, 10, false},
		// Throughput 0.8×: the time per unit of work is 1.25×, so +25%.
		{"tput", Regression, "", 0.25, 10, 10, false},
		{"summary", Warn, "no raw samples: ratio only", 0.3, 3, 3, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := byName(t, c, tt.name)
			if r.Verdict != tt.verdict || !strings.Contains(r.Reason, tt.reasonHas) {
				t.Errorf("verdict %s (%q), want %s (containing %q)", r.Verdict, r.Reason, tt.verdict, tt.reasonHas)
			}
			if math.IsNaN(tt.change) != math.IsNaN(r.Change) || !math.IsNaN(r.Change) && !near(r.Change, tt.change, 1e-9) {
				t.Errorf("change %v, want %v", r.Change, tt.change)
			}
			if r.NBaseline != tt.nb || r.NCandidate != tt.nc || r.SummaryOnly != tt.summaryOnl {
				t.Errorf("n %d/%d summaryOnly %v, want %d/%d %v", r.NBaseline, r.NCandidate, r.SummaryOnly, tt.nb, tt.nc, tt.summaryOnl)
			}
		})
	}
	// Five benchmarks are tested (regress, improve, noisy, flat, tput). The
	// two smallest worse-direction p-values are both 1/184756, so BH gives
	// both 5/2 · p; the single smallest better-direction p gets 5 · p.
	for _, tt := range []struct {
		name       string
		p, adj     float64
		pb, pbAdj  float64
		ciLo, ciHi float64
	}{
		{"regress", exactP, 2.5 * exactP, 1, 1, 0.1, 0.35},
		{"tput", exactP, 2.5 * exactP, 1, 1, 0.1, 0.45},
		{"improve", 1, 1, exactP, 5 * exactP, -0.3, -0.1},
	} {
		r := byName(t, c, tt.name)
		if !near(r.PValue, tt.p, 1e-15) || !near(r.PAdjusted, tt.adj, 1e-15) ||
			!near(r.PBetter, tt.pb, 1e-15) || !near(r.PBetterAdjusted, tt.pbAdj, 1e-15) {
			t.Errorf("%s: p %g adj %g, better p %g adj %g; want %g %g %g %g", tt.name,
				r.PValue, r.PAdjusted, r.PBetter, r.PBetterAdjusted, tt.p, tt.adj, tt.pb, tt.pbAdj)
		}
		if !(tt.ciLo < r.CILow && r.CILow < r.Change && r.Change < r.CIHigh && r.CIHigh < tt.ciHi) {
			t.Errorf("%s: CI [%v, %v] around %v, want inside (%v, %v)", tt.name, r.CILow, r.CIHigh, r.Change, tt.ciLo, tt.ciHi)
		}
	}
	want := Summary{Regressions: 2, Improvements: 1, Warnings: 2, Insufficient: 2, Unchanged: 1, Errors: 2}
	got := c.Summary
	got.GeomeanChange = 0
	if got != want {
		t.Errorf("summary %+v, want %+v", got, want)
	}
	// Geometric mean over regress, improve, noisy, flat, tput, summary.
	g := math.Pow(1.2*0.8*1.15*1*1.25*1.3, 1.0/6) - 1
	if !near(c.Summary.GeomeanChange, g, 1e-9) {
		t.Errorf("geomean %v, want %v", c.Summary.GeomeanChange, g)
	}
	if !c.Failed() {
		t.Error("Failed() = false with two regressions")
	}
	if c.Candidate.ID != "c1" || len(c.Baseline) != 1 || c.Baseline[0].ID != "b1" {
		t.Errorf("runs: candidate %+v baseline %+v", c.Candidate, c.Baseline)
	}
	var names []string
	for _, r := range c.Results {
		names = append(names, r.Name)
	}
	if got, want := strings.Join(names, ","), "broken,few,flat,gone,improve,new,noisy,regress,summary,tput"; got != want {
		t.Errorf("order %s, want %s", got, want)
	}
}

// TestCorrections: Holm multiplies the smallest p by the number of tests;
// none leaves p alone; both keep the regressions of the fixture.
func TestCorrections(t *testing.T) {
	base, cand := fixture()
	const p = 1.0 / 184756
	for _, tt := range []struct {
		corr string
		adj  float64
	}{{CorrectionHolm, 5 * p}, {CorrectionNone, p}, {CorrectionBH, 2.5 * p}} {
		t.Run(tt.corr, func(t *testing.T) {
			o := withinOnly()
			o.Correction = tt.corr
			c, err := Compare(base, cand, o)
			if err != nil {
				t.Fatal(err)
			}
			if r := byName(t, c, "regress"); !near(r.PAdjusted, tt.adj, 1e-15) || r.Verdict != Regression {
				t.Errorf("adjusted p %g verdict %s, want %g regression", r.PAdjusted, r.Verdict, tt.adj)
			}
		})
	}
}

// TestCorrectionDecides: with 200 tested benchmarks, a p of 0.004 passes
// alpha 0.01 uncorrected but not after BH.
func TestCorrectionDecides(t *testing.T) {
	b10 := seq(100, 1, 10)
	var bb, cb []model.Benchmark
	// One benchmark shifted so its exact p is small but not tiny: the
	// candidate is 105.5, 106.5, … (5 ranks of overlap).
	bb = append(bb, bench("s", "edge", "ns", model.Lower, b10))
	cb = append(cb, bench("s", "edge", "ns", model.Lower, seq(105.5, 10, 10)))
	for i := range 200 {
		n := fmt.Sprintf("same%03d", i)
		bb = append(bb, bench("s", n, "ns", model.Lower, b10))
		cb = append(cb, bench("s", n, "ns", model.Lower, b10))
	}
	base, cand := []*model.Results{results("b", "a", bb...)}, []*model.Results{results("c", "b", cb...)}
	for _, tt := range []struct {
		corr string
		want Verdict
	}{{CorrectionNone, Regression}, {CorrectionBH, Warn}} {
		o := DefaultOptions()
		o.Correction = tt.corr
		c, err := Compare(base, cand, o)
		if err != nil {
			t.Fatal(err)
		}
		r := byName(t, c, "edge")
		if r.Verdict != tt.want || !(r.PValue < 0.01) {
			t.Errorf("%s: verdict %s (p %g, adjusted %g), want %s", tt.corr, r.Verdict, r.PValue, r.PAdjusted, tt.want)
		}
	}
}

func TestPoolingAndUnits(t *testing.T) {
	b10 := seq(100, 1, 10)
	base := []*model.Results{
		results("b1", "a", bench("s", "t", "us", model.Lower, scale(b10, 1e-3)),
			bench("s", "mixed", "GB/s", model.Higher, b10)),
		results("b2", "c", bench("s", "t", "ns", model.Lower, b10),
			bench("s", "mixed", "GB/s", model.Higher, b10)),
	}
	cand := []*model.Results{results("c1", "b", bench("s", "t", "ms", model.Lower, scale(b10, 1.2e-6)),
		bench("s", "mixed", "ns", model.Lower, b10))}
	c, err := Compare(base, cand, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	r := byName(t, c, "t")
	if r.Unit != "ms" || r.NBaseline != 20 || r.Verdict != Regression || !near(r.BaselineMedian, 104.5e-6, 1e-15) || !near(r.Change, 0.2, 1e-9) {
		t.Errorf("pooled: %+v", r)
	}
	// A unit the candidate's does not convert to is another series (issue 27).
	if r := byName(t, c, "mixed"); r.Verdict != Insufficient || r.Reason != "a new series: no baseline run in ns yet (the earlier runs are in GB/s, kept for trend)" {
		t.Errorf("mixed units: %s %q, want insufficient: a new series", r.Verdict, r.Reason)
	}
	if len(c.Baseline) != 2 {
		t.Errorf("baseline runs %d, want 2", len(c.Baseline))
	}
}

func TestOverridesAndIgnore(t *testing.T) {
	base, cand := fixture()
	o := DefaultOptions()
	o.Overrides = []Override{
		{Glob: "fix/regress", Threshold: 0.5, Better: ""},
		{Glob: "fix/regress", Threshold: 0.01}, // never reached: first match wins
		{Glob: "fix/improve", Threshold: -1, Better: model.Higher},
	}
	o.Ignore = []string{"fix/n*"}
	c, err := Compare(base, cand, o)
	if err != nil {
		t.Fatal(err)
	}
	if r := byName(t, c, "regress"); r.Verdict != Unchanged || r.Threshold != 0.5 {
		t.Errorf("regress with 50%% threshold: %s (threshold %v), want unchanged", r.Verdict, r.Threshold)
	}
	// Declared higher-is-better, 0.8× is a 25% slowdown.
	if r := byName(t, c, "improve"); r.Verdict != Regression || !near(r.Change, 0.25, 1e-9) || r.Better != model.Higher {
		t.Errorf("improve as higher-is-better: %s %v", r.Verdict, r.Change)
	}
	for _, r := range c.Results {
		if strings.HasPrefix(r.Name, "n") {
			t.Errorf("ignored benchmark %s is in the results", r.Name)
		}
	}
}

func TestCompareBaselineIncomparable(t *testing.T) {
	_, cand := fixture()
	b := &model.Baseline{Incomparable: []model.Incomparable{{Run: model.RunRef{ID: "old"}, Reason: `GPU "NVIDIA A100" vs "NVIDIA H200"`}}}
	c, err := CompareBaseline(b, cand, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if c.Summary.Incomparable != len(c.Results) || len(c.Results) == 0 || c.Failed() {
		t.Fatalf("summary %+v over %d results, want all incomparable", c.Summary, len(c.Results))
	}
	r := byName(t, c, "broken")
	if !strings.Contains(r.Reason, "A100") || !strings.Contains(r.Reason, "CUDA_ERROR_LAUNCH_FAILED") {
		t.Errorf("reason %q should name the testbed difference and the candidate's error", r.Reason)
	}
	// With usable runs the passed-over ones are only listed.
	base, _ := fixture()
	b = &model.Baseline{Runs: base, Used: []model.RunRef{base[0].Run.Ref()}, Incomparable: b.Incomparable}
	c, err = CompareBaseline(b, cand, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if c.Summary.Incomparable != 0 || len(c.Incomparable) != 1 || !c.Failed() {
		t.Errorf("with usable runs: summary %+v, incomparable %v", c.Summary, c.Incomparable)
	}
}

func TestEdgeCases(t *testing.T) {
	b10 := seq(100, 1, 10)
	baseErr := bench("s", "berr", "ns", model.Lower, nil)
	baseErr.Error = "out of memory"
	zeros := append([]float64{0, 0}, b10[2:]...)
	base := []*model.Results{results("b", "a", baseErr, bench("s", "zero", "ns", model.Lower, zeros))}
	cand := []*model.Results{results("c", "b", bench("s", "berr", "ns", model.Lower, b10),
		bench("s", "zero", "ns", model.Lower, scale(b10, 1.3)))}
	c, err := Compare(base, cand, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if r := byName(t, c, "berr"); r.Verdict != Insufficient || !strings.Contains(r.Reason, "out of memory") {
		t.Errorf("baseline error: %s %q", r.Verdict, r.Reason)
	}
	// Zero samples have no log: the change falls back to the ratio of medians.
	r := byName(t, c, "zero")
	wantChange := 0.3 // medians 1.3·104.5 and 104.5 (zeros replace 100 and 101)
	if r.Verdict != Regression || !near(r.Change, wantChange, 1e-9) || !math.IsNaN(r.CILow) || !strings.Contains(r.Reason, "ratio of medians") {
		t.Errorf("zero samples: %s change %v (want %v) CI %v reason %q", r.Verdict, r.Change, wantChange, r.CILow, r.Reason)
	}
	// No baseline runs at all.
	c, err = Compare(nil, cand, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if r := byName(t, c, "zero"); r.Verdict != Insufficient || r.Reason != "no baseline run" {
		t.Errorf("no baseline: %s %q", r.Verdict, r.Reason)
	}
	if !math.IsNaN(c.Summary.GeomeanChange) {
		t.Errorf("geomean without estimates = %v, want NaN", c.Summary.GeomeanChange)
	}
}

func TestDeterministicAcrossWorkers(t *testing.T) {
	base, cand := synth(500, 20, 0.05, 42, nil)
	render := func() string {
		c, err := Compare(base, cand, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%v", c.Results)
	}
	prev := runtime.GOMAXPROCS(1)
	one := render()
	runtime.GOMAXPROCS(4)
	four := render()
	runtime.GOMAXPROCS(prev)
	if one != four {
		t.Error("results differ between 1 and 4 workers")
	}
}

func TestCompareRejectsBadOptions(t *testing.T) {
	o := DefaultOptions()
	o.Alpha = 0
	if _, err := Compare(nil, nil, o); err == nil {
		t.Error("alpha 0 accepted")
	}
}

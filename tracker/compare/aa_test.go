package compare

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

// synth makes one baseline and one candidate run of n benchmarks with m
// samples each: log-normal noise of relative spread cv around 1000 ns, the
// candidate multiplied by shift(i) (nil: no shift), values rounded to
// multiples of quantum when quantum > 0 (timer resolution: ties).
func synth(n, m int, cv float64, seed uint64, shift func(int) float64) (base, cand []*model.Results) {
	return synthQ(n, m, cv, 0, seed, shift)
}

func synthQ(n, m int, cv, quantum float64, seed uint64, shift func(int) float64) (base, cand []*model.Results) {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	draw := func(f float64) []float64 {
		out := make([]float64, m)
		for i := range out {
			v := 1000 * f * math.Exp(cv*rng.NormFloat64())
			if quantum > 0 {
				v = math.Max(quantum, math.Round(v/quantum)*quantum)
			}
			out[i] = v
		}
		return out
	}
	bb := make([]model.Benchmark, n)
	cb := make([]model.Benchmark, n)
	for i := range n {
		name := fmt.Sprintf("k%05d", i)
		f := 1.0
		if shift != nil {
			f = shift(i)
		}
		bb[i] = bench("synth", name, "ns", model.Lower, draw(1))
		cb[i] = bench("synth", name, "ns", model.Lower, draw(f))
	}
	return []*model.Results{results("base", "a", bb...)}, []*model.Results{results("cand", "b", cb...)}
}

// TestAAFalseAlarms runs A/A comparisons: both sides from one distribution,
// so every regression is a false alarm. Uncorrected with threshold 0 the
// rate is the test's size, which must not exceed alpha (the exact test is
// conservative); with BH the chance of any false alarm in a comparison is at
// most alpha; with the defaults (10% threshold) false alarms are rarer still.
func TestAAFalseAlarms(t *testing.T) {
	const alpha = 0.01
	for _, tt := range []struct {
		name    string
		quantum float64 // timer resolution in ns: ties when > 0
	}{{"continuous", 0}, {"quantized", 10}} {
		t.Run(tt.name, func(t *testing.T) {
			// Per-test size: 20 comparisons × 200 benchmarks = 4000 tests.
			const reps, n = 20, 200
			var falseReg, anyBH, defaultReg, warns int
			for rep := range reps {
				base, cand := synthQ(n, 10, 0.05, tt.quantum, uint64(1000+rep), nil)
				raw := DefaultOptions()
				raw.Threshold, raw.Correction = 0, CorrectionNone
				falseReg += mustCompare(t, base, cand, raw).Summary.Regressions
				bh := DefaultOptions()
				bh.Threshold = 0
				if mustCompare(t, base, cand, bh).Summary.Regressions > 0 {
					anyBH++
				}
				def := mustCompare(t, base, cand, DefaultOptions())
				defaultReg += def.Summary.Regressions
				warns += def.Summary.Warnings
			}
			tests := reps * n
			rate := float64(falseReg) / float64(tests)
			t.Logf("A/A %s: %d of %d uncorrected tests significant (rate %.4f, alpha %v); "+
				"%d of %d BH comparisons with any false regression; defaults: %d false regressions, %d warnings in %d benchmarks",
				tt.name, falseReg, tests, rate, alpha, anyBH, reps, defaultReg, warns, tests)
			// Binomial(4000, 0.01): mean 40, sd 6.3; mean + 3 sd = 59.
			if falseReg > 59 {
				t.Errorf("uncorrected false regressions %d of %d: rate %.4f is well above alpha %v", falseReg, tests, rate, alpha)
			}
			// Binomial(20, 0.01): P(≥ 3) ≈ 0.001.
			if anyBH >= 3 {
				t.Errorf("%d of %d BH comparisons had a false regression; expected about %v", anyBH, reps, alpha*reps)
			}
			if defaultReg != 0 {
				t.Errorf("defaults gave %d false regressions in an A/A comparison at 5%% noise", defaultReg)
			}
		})
	}
}

// TestPowerSanity checks the other side: a real 20% slowdown at 5% noise
// with 10 samples per side is found in nearly every benchmark.
func TestPowerSanity(t *testing.T) {
	base, cand := synth(200, 10, 0.05, 7, func(int) float64 { return 1.2 })
	c := mustCompare(t, base, cand, DefaultOptions())
	if c.Summary.Regressions < 190 {
		t.Errorf("found %d of 200 true 20%% regressions", c.Summary.Regressions)
	}
}

func mustCompare(t testing.TB, base, cand []*model.Results, o Options) *Comparison {
	t.Helper()
	c, err := Compare(base, cand, o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

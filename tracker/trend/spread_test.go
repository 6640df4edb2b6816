package trend

import (
	"math"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

func points(medians ...float64) []model.TrendPoint {
	out := make([]model.TrendPoint, len(medians))
	for i, m := range medians {
		out[i].Median = m
	}
	return out
}

// TestRunSpread: the spread follows the runs' noise, not a step among them.
func TestRunSpread(t *testing.T) {
	// Alternating ±1%: every successive log difference is log(1.01/0.99),
	// so the spread is expm1(1.4826·0.0200013/√2) ≈ 2.12%.
	alt := points(101, 99, 101, 99, 101, 99, 101)
	want := math.Expm1(1.4826 * math.Log(101.0/99) / math.Sqrt2)
	if got := RunSpread(alt); math.Abs(got-want) > 1e-12 {
		t.Errorf("alternating: %v, want %v", got, want)
	}
	// The same noise with a +30% step in the middle: one difference grows,
	// the median of the differences does not.
	step := points(101, 99, 101, 99*1.3, 101*1.3, 99*1.3, 101*1.3)
	if got := RunSpread(step); math.Abs(got-want) > 1e-12 {
		t.Errorf("with a step: %v, want %v", got, want)
	}
	if got := RunSpread(points(100, 101)); !math.IsNaN(got) {
		t.Errorf("two runs: %v, want NaN", got)
	}
}

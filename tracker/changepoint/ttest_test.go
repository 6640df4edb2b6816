package changepoint

import (
	"math"
	"testing"
)

// TestTTwoSided pins P(|T| ≥ t) at Student quantiles from R:
// qt(0.975, 10) = 2.228139, qt(0.995, 10) = 3.169273,
// qt(0.9995, 10) = 4.586894, qt(0.975, 30) = 2.042272,
// qt(0.9995, 60) = 3.460200; and at df = 1, where T is Cauchy and the
// tail is exactly 1 − 2·atan(t)/π.
func TestTTwoSided(t *testing.T) {
	cases := []struct {
		t, df, want, tol float64
	}{
		{2.228139, 10, 0.05, 1e-6},
		{3.169273, 10, 0.01, 1e-6},
		{4.586894, 10, 0.001, 1e-7},
		{2.042272, 30, 0.05, 1e-6},
		{3.460200, 60, 0.001, 1e-6},
		{0, 10, 1, 1e-12},
		{1, 1, 1 - 2*math.Atan(1)/math.Pi, 1e-12},
		{12.7062, 1, 1 - 2*math.Atan(12.7062)/math.Pi, 1e-12},
		{100, 1, 1 - 2*math.Atan(100)/math.Pi, 1e-12},
		{math.Inf(1), 5, 0, 0},
	}
	for _, c := range cases {
		if got := tTwoSided(c.t, c.df); math.Abs(got-c.want) > c.tol {
			t.Errorf("tTwoSided(%v, %v) = %.9g, want %.9g", c.t, c.df, got, c.want)
		}
	}
}

func TestStudentP(t *testing.T) {
	// {1,2,3} vs {4,5,6}: pooled variance 1, t = 3/√(2/3), df = 4.
	want := tTwoSided(3/math.Sqrt(2.0/3), 4)
	cases := []struct {
		name string
		x, y []float64
		want float64
	}{
		{"pooled", []float64{1, 2, 3}, []float64{4, 5, 6}, want},
		{"swapped", []float64{4, 5, 6}, []float64{1, 2, 3}, want},
		{"no degree of freedom", []float64{1}, []float64{2}, 1},
		{"empty", nil, []float64{1, 2, 3}, 1},
		{"no spread, apart", []float64{1, 1}, []float64{2, 2}, 0},
		{"no spread, equal", []float64{1, 1}, []float64{1, 1}, 1},
		// One value against three: the spread comes from the three alone.
		{"single value", []float64{10}, []float64{1, 2, 3}, tTwoSided(8/math.Sqrt(1*(1+1.0/3)), 2)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := studentP(c.x, c.y); math.Abs(got-c.want) > 1e-12 {
				t.Errorf("studentP = %.12g, want %.12g", got, c.want)
			}
		})
	}
}

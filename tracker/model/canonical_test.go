package model

import (
	"math"
	"testing"
)

// TestMedianCV pins values computed with numpy:
// python3 -c "import numpy as n; x=n.array(X); print(n.median(x), x.std(ddof=1)/x.mean())"
func TestMedianCV(t *testing.T) {
	for _, tc := range []struct {
		x      []float64
		median float64
		cv     float64
	}{
		{[]float64{3, 1, 2}, 2, 0.5},
		{[]float64{4, 1, 3, 2}, 2.5, 0.5163977794943222},
		{[]float64{7}, 7, 0},
		{[]float64{-1, 1}, 0, 0}, // zero mean: CV 0
	} {
		m, cv := MedianCV(tc.x)
		if m != tc.median || math.Abs(cv-tc.cv) > 1e-15 {
			t.Errorf("MedianCV(%v) = %v, %v; want %v, %v", tc.x, m, cv, tc.median, tc.cv)
		}
	}
	if m, cv := MedianCV(nil); !math.IsNaN(m) || cv != 0 {
		t.Errorf("MedianCV(nil) = %v, %v; want NaN, 0", m, cv)
	}
}

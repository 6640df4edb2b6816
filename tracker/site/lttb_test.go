package site

import (
	"math"
	"slices"
	"testing"
)

func TestDownsample(t *testing.T) {
	n := 10000
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = float64(i)
		y[i] = 100 + math.Sin(float64(i))
		if i == 7777 {
			y[i] = 500 // a spike must survive
		}
	}
	got := Downsample(x, y, 400)
	if len(got) != 400 || got[0] != 0 || got[len(got)-1] != n-1 || !slices.IsSorted(got) {
		t.Fatalf("Downsample: %d indexes, first %d, last %d, sorted %v", len(got), got[0], got[len(got)-1], slices.IsSorted(got))
	}
	if !slices.Contains(got, 7777) {
		t.Error("the spike at 7777 was dropped")
	}
	if got := Downsample(x[:50], y[:50], 400); len(got) != 50 {
		t.Errorf("50 points kept as %d", len(got))
	}
	// A hand-checked case: three buckets of one point each keep them all.
	if got := Downsample([]float64{0, 1, 2, 3, 4}, []float64{0, 5, 0, 5, 0}, 5); !slices.Equal(got, []int{0, 1, 2, 3, 4}) {
		t.Errorf("n = len: %v", got)
	}
	if got := Downsample([]float64{0, 1, 2, 3, 4, 5}, []float64{0, 0, 9, 0, 0, 0}, 3); !slices.Equal(got, []int{0, 2, 5}) {
		t.Errorf("one bucket: %v, want the peak [0 2 5]", got)
	}
}

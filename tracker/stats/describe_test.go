package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestDescribe(t *testing.T) {
	tests := []struct {
		name string
		x    []float64
		want Summary
	}{
		{"empty", nil, Summary{}},
		{"one", []float64{4}, Summary{N: 1, Median: 4, Mean: 4, Min: 4, Max: 4, P95: 4, P99: 4}},
		// numpy: np.std([1,2,3,4,10], ddof=1) = 3.5355339059327378;
		// np.percentile(x, [95, 99]) = [8.8, 9.76]; median_abs_deviation = 1.
		{"five", []float64{10, 1, 3, 2, 4}, Summary{N: 5, Median: 3, Mean: 4, Std: 3.5355339059327378,
			CV: 3.5355339059327378 / 4, Min: 1, Max: 10, P95: 8.8, P99: 9.76, MAD: 1}},
		{"zero mean", []float64{-1, 1}, Summary{N: 2, Median: 0, Mean: 0, Std: math.Sqrt2, CV: 0,
			Min: -1, Max: 1, P95: 0.8999999999999999, P99: 0.98, MAD: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Describe(tt.x)
			if got.N != tt.want.N {
				t.Fatalf("N = %d, want %d", got.N, tt.want.N)
			}
			for _, f := range []struct {
				name      string
				got, want float64
			}{{"Median", got.Median, tt.want.Median}, {"Mean", got.Mean, tt.want.Mean}, {"Std", got.Std, tt.want.Std},
				{"CV", got.CV, tt.want.CV}, {"Min", got.Min, tt.want.Min}, {"Max", got.Max, tt.want.Max},
				{"P95", got.P95, tt.want.P95}, {"P99", got.P99, tt.want.P99}, {"MAD", got.MAD, tt.want.MAD}} {
				if math.Abs(f.got-f.want) > 1e-14*math.Max(1, math.Abs(f.want)) {
					t.Errorf("%s = %.17g, want %.17g", f.name, f.got, f.want)
				}
			}
		})
	}
}

// TestMedianAbsDevMatchesSort checks the merge walk against the definition:
// the median of the sorted absolute deviations, bit for bit.
func TestMedianAbsDevMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, n := range []int{1, 2, 3, 4, 5, 10, 99, 100, 1001} {
		for _, levels := range []int{0, 1, 2, 5} {
			t.Run(fmt.Sprintf("n=%d/levels=%d", n, levels), func(t *testing.T) {
				x := make([]float64, n)
				for i := range x {
					if levels > 0 {
						x[i] = float64(rng.IntN(levels)) * 0.1
					} else {
						x[i] = 1000 * math.Exp(0.05*rng.NormFloat64())
					}
				}
				slices.Sort(x)
				med := Quantile(x, 0.5)
				dev := make([]float64, n)
				for i, v := range x {
					dev[i] = math.Abs(v - med)
				}
				slices.Sort(dev)
				if got, want := medianAbsDev(x, med), Quantile(dev, 0.5); got != want {
					t.Errorf("medianAbsDev = %.17g, want %.17g", got, want)
				}
			})
		}
	}
}

// TestDescribeSortedDoesNotAllocate: compare describes every benchmark's
// pooled samples, which it keeps sorted.
func TestDescribeSortedDoesNotAllocate(t *testing.T) {
	base, _ := benchSamples(100)
	slices.Sort(base)
	if a := testing.AllocsPerRun(100, func() { Describe(base) }); a != 0 {
		t.Errorf("Describe of sorted samples: %v allocations, want 0", a)
	}
}

func TestMedianInPlaceMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for _, n := range []int{1, 2, 3, 4, 7, 100, 101, 1000} {
		for _, levels := range []int{0, 1, 3} {
			x := make([]float64, n)
			for i := range x {
				if levels > 0 {
					x[i] = float64(rng.IntN(levels))
				} else {
					x[i] = rng.NormFloat64()
				}
			}
			s := slices.Clone(x)
			slices.Sort(s)
			want := s[n/2]
			if n%2 == 0 {
				want = (s[n/2-1] + s[n/2]) / 2
			}
			if got := MedianInPlace(x); got != want {
				t.Errorf("n=%d levels=%d: MedianInPlace = %v, want %v", n, levels, got, want)
			}
		}
	}
	if got := MedianInPlace(nil); !math.IsNaN(got) {
		t.Errorf("MedianInPlace(nil) = %v, want NaN", got)
	}
}

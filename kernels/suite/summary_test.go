package suite

import (
	"math"
	"testing"
)

func TestAddSummary(t *testing.T) {
	// python3 -c "import statistics as st; x=[3.1,2.7,5.9,4.4,2.2,8.8,3.3,3.0,4.1,2.9];
	//   q=st.quantiles(x,n=100,method='inclusive'); print(st.mean(x),st.median(x),st.stdev(x),q[94],q[98])"
	// → 4.04 3.2 1.978888576954246 7.495 8.539 (method='inclusive' is type 7, numpy's default).
	m := map[string]float64{}
	addSummary(m, []float64{3.1, 2.7, 5.9, 4.4, 2.2, 8.8, 3.3, 3.0, 4.1, 2.9})
	want := map[string]float64{"mean_us": 4.04, "median_us": 3.2, "std_us": 1.978888576954246,
		"p95_us": 7.495, "p99_us": 8.539, "min_us": 2.2, "max_us": 8.8}
	for k, w := range want {
		if math.Abs(m[k]-w) > 1e-12 {
			t.Errorf("%s = %v, want %v", k, m[k], w)
		}
	}
	one := map[string]float64{}
	addSummary(one, []float64{5})
	if one["p99_us"] != 5 || one["median_us"] != 5 {
		t.Errorf("one sample: %v", one)
	}
	if _, ok := one["std_us"]; ok {
		t.Errorf("one sample has no standard deviation: %v", one)
	}
	empty := map[string]float64{}
	addSummary(empty, nil)
	if len(empty) != 0 {
		t.Errorf("no samples: %v", empty)
	}
}

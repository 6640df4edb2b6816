package suite

import (
	"math"
	"slices"
)

// addSummary writes the descriptive statistics of samples (µs) that users of
// latency harnesses expect next to the median: mean_us, median_us, std_us
// (sample standard deviation), min_us, max_us, p95_us and p99_us.
func addSummary(m map[string]float64, samples []float64) {
	if len(samples) == 0 {
		return
	}
	s := slices.Clone(samples)
	slices.Sort(s)
	var sum float64
	for _, v := range s {
		sum += v
	}
	mean := sum / float64(len(s))
	m["mean_us"] = mean
	m["median_us"] = quantile(s, 0.5)
	m["min_us"] = s[0]
	m["max_us"] = s[len(s)-1]
	m["p95_us"] = quantile(s, 0.95)
	m["p99_us"] = quantile(s, 0.99)
	if len(s) > 1 {
		var ss float64
		for _, v := range s {
			ss += (v - mean) * (v - mean)
		}
		m["std_us"] = math.Sqrt(ss / float64(len(s)-1))
	}
}

// quantile returns the p-quantile of sorted by linear interpolation between
// order statistics (Hyndman & Fan type 7: numpy's and R's default).
func quantile(sorted []float64, p float64) float64 {
	h := p * float64(len(sorted)-1)
	lo := math.Floor(h)
	i := int(lo)
	if i+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	return sorted[i] + (h-lo)*(sorted[i+1]-sorted[i])
}

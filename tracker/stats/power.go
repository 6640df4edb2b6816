package stats

import "math"

// RequiredN estimates the samples per side that a one-sided Mann-Whitney
// test needs to detect a relative change effect (a fraction such as 0.10)
// when the pooled relative spread is cv, at significance alpha with the
// given power (such as 0.8). It scales the two-sample z-test size
// 2·(z_α + z_β)²·(cv/effect)² by the test's asymptotic relative efficiency
// 3/π against normal data, and never returns fewer samples than the exact
// test needs to reach alpha at all (complete separation has p = 1/C(2n, n)).
// It returns 0 when no finite answer exists: effect ≤ 0, cv < 0, or alpha or
// power outside (0, 1).
func RequiredN(effect, cv, alpha, power float64) int {
	if !(effect > 0 && cv >= 0 && alpha > 0 && alpha < 1 && power > 0 && power < 1) ||
		math.IsInf(effect, 0) || math.IsInf(cv, 0) {
		return 0
	}
	z := -normalQuantile(alpha) - normalQuantile(1-power)
	r := cv / effect
	n := math.Ceil(2 * z * z * r * r * math.Pi / 3)
	floor := 1
	for lchoose(2*floor, floor) < -math.Log(alpha) {
		floor++
	}
	if n > float64(math.MaxInt32) {
		return math.MaxInt32
	}
	return max(int(n), floor)
}

// lchoose returns log C(n, k).
func lchoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

package stats

import "math"

// RequiredN estimates the samples per side that a one-sided Mann-Whitney
// test needs to detect a relative change effect (a fraction such as 0.10)
// when the pooled relative spread is cv, at significance alpha with the
// given power (such as 0.8).
//
// It uses Noether's normal approximation, n = (z_α + z_β)² / (6·(P − 1/2)²)
// per side, with P = Φ(effect / (cv·√2)) the probability that a changed
// value exceeds an unchanged one for normal data. For small effects this is
// the two-sample z-test size 2·(z_α + z_β)²·(cv/effect)² divided by the
// test's asymptotic relative efficiency 3/π; for large ones it stays
// accurate where that linearisation asks for too few samples. It never
// returns fewer samples than the exact test needs to reach alpha at all
// (complete separation has p = 1/C(2n, n)).
//
// It returns 0 when no finite answer exists: effect ≤ 0, cv < 0, or alpha or
// power outside (0, 1).
func RequiredN(effect, cv, alpha, power float64) int {
	if !(effect > 0 && cv >= 0 && alpha > 0 && alpha < 1 && power > 0 && power < 1) ||
		math.IsInf(effect, 0) || math.IsInf(cv, 0) {
		return 0
	}
	floor := 1
	for lchoose(2*floor, floor) < -math.Log(alpha) {
		floor++
	}
	if cv == 0 { // no noise: complete separation every time
		return floor
	}
	z := -normalQuantile(alpha) - normalQuantile(1-power)
	// P − 1/2 = Φ(d) − 1/2 = erf(d/√2)/2 with d = effect/(cv·√2).
	half := math.Erf(effect/cv/2) / 2
	n := math.Ceil(z * z / (6 * half * half))
	return int(max(min(n, math.MaxInt32), float64(floor)))
}

// lchoose returns log C(n, k).
func lchoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

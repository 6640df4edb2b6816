package changepoint

import "math"

// studentP returns the two-sided p-value of Student's pooled two-sample
// t-test of the means of x and y. It is 1 when there are fewer than three
// values in all (no degree of freedom) and 0 when both sides have no
// spread and different means.
func studentP(x, y []float64) float64 {
	n1, n2 := float64(len(x)), float64(len(y))
	df := n1 + n2 - 2
	if len(x) == 0 || len(y) == 0 || df < 1 {
		return 1
	}
	m1, ss1 := meanSS(x)
	m2, ss2 := meanSS(y)
	s2 := (ss1 + ss2) / df
	diff := math.Abs(m2 - m1)
	if s2 == 0 || math.IsNaN(s2) {
		if diff == 0 || math.IsNaN(diff) {
			return 1
		}
		return 0
	}
	t := diff / math.Sqrt(s2*(1/n1+1/n2))
	return tTwoSided(t, df)
}

// meanSS returns the mean of x and the sum of squared deviations from it.
func meanSS(x []float64) (mean, ss float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return mean, ss
}

// tTwoSided returns P(|T| ≥ t) for Student's t with df degrees of freedom:
// I_{df/(df+t²)}(df/2, 1/2), the regularized incomplete beta function.
func tTwoSided(t, df float64) float64 {
	if math.IsInf(t, 0) {
		return 0
	}
	return incBeta(df/2, 0.5, df/(df+t*t))
}

// incBeta is the regularized incomplete beta function I_x(a, b), by the
// continued fraction of Numerical Recipes (3rd ed., §6.4), used directly
// for x < (a+1)/(a+b+2) and through the symmetry I_x(a,b) = 1 − I_{1−x}(b,a)
// otherwise, where the fraction converges fast.
func incBeta(a, b, x float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	la, _ := math.Lgamma(a + b)
	lb, _ := math.Lgamma(a)
	lc, _ := math.Lgamma(b)
	front := math.Exp(la - lb - lc + a*math.Log(x) + b*math.Log1p(-x))
	if x < (a+1)/(a+b+2) {
		return front * betaCF(a, b, x) / a
	}
	return 1 - front*betaCF(b, a, 1-x)/b
}

// betaCF evaluates the continued fraction of incBeta by the modified Lentz
// method.
func betaCF(a, b, x float64) float64 {
	const eps, tiny = 1e-15, 1e-300
	qab, qap, qam := a+b, a+1, a-1
	c, d := 1.0, 1-qab*x/qap
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= 300; m++ {
		fm := float64(m)
		aa := fm * (b - fm) * x / ((qam + 2*fm) * (a + 2*fm))
		d, c = step(d, c, aa)
		h *= d * c
		aa = -(a + fm) * (qab + fm) * x / ((a + 2*fm) * (qap + 2*fm))
		d, c = step(d, c, aa)
		del := d * c
		h *= del
		if math.Abs(del-1) < eps {
			break
		}
	}
	return h
}

// step is one Lentz update of the pair (d, c) with the coefficient aa.
func step(d, c, aa float64) (float64, float64) {
	const tiny = 1e-300
	d = 1 + aa*d
	if math.Abs(d) < tiny {
		d = tiny
	}
	c = 1 + aa/c
	if math.Abs(c) < tiny {
		c = tiny
	}
	return 1 / d, c
}

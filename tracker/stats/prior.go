package stats

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/mathext"
)

// A Prior is a scaled inverse-χ² prior for the variances of a family of
// benchmarks (Smyth 2004): each benchmark's true variance is drawn around
// S2 with DF degrees of freedom. DF = 0 means no prior (nothing to borrow);
// DF = +Inf means every benchmark shares the variance S2.
type Prior struct {
	S2, DF float64
}

// Moderate returns the posterior variance of a benchmark whose sample
// variance is s2 on df degrees of freedom, and its degrees of freedom:
// (DF·S2 + df·s2)/(DF + df) on DF + df. With no prior it returns s2 and df;
// with an infinite one, S2 and +Inf.
func (p Prior) Moderate(s2, df float64) (float64, float64) {
	switch {
	case !(p.DF > 0) || !(p.S2 > 0):
		return s2, df
	case math.IsInf(p.DF, 1):
		return p.S2, math.Inf(1)
	case !(df > 0):
		return p.S2, p.DF
	}
	return (p.DF*p.S2 + df*s2) / (p.DF + df), p.DF + df
}

// FitPrior estimates the prior of a family of sample variances s2, each on
// df degrees of freedom, by the method of moments on the log scale of
// limma's fitFDist (Smyth 2004, section 6.2), without covariates: with
// e = log s2 − ψ(df/2) + log(df/2), the prior's degrees of freedom d0 solve
// ψ′(d0/2) = var(e) − mean ψ′(df/2) and its variance is
// exp(mean e + ψ(d0/2) − log(d0/2)); where var(e) is no larger than the
// sampling variance alone explains, d0 = +Inf and the variance their mean
// (limma since 2017).
// Entries with df ≤ 0 or a variance that is not finite are left out; as in
// limma, variances are raised to at least 1e-5 times their median (a
// variance of 0, such as timings quantised to the same tick, would send
// the log to −Inf). Fewer than two entries give no prior (DF 0).
func FitPrior(s2, df []float64) Prior {
	var x, d []float64
	for i := range s2 {
		if df[i] > 0 && s2[i] >= 0 && !math.IsInf(s2[i], 1) && !math.IsInf(df[i], 1) {
			x, d = append(x, s2[i]), append(d, df[i])
		}
	}
	n := len(x)
	if n < 2 {
		return Prior{}
	}
	m := Quantile(slices.Sorted(slices.Values(x)), 0.5)
	if m == 0 {
		m = 1
	}
	e := make([]float64, n)
	var emean, tri float64
	for i := range x {
		z := math.Log(max(x[i], 1e-5*m))
		e[i] = z - mathext.Digamma(d[i]/2) + math.Log(d[i]/2)
		emean += e[i]
		tri += trigamma(d[i] / 2)
	}
	emean /= float64(n)
	evar := sumSq(e, emean)/float64(n-1) - tri/float64(n)
	if !(evar > 0) {
		return Prior{S2: mean(x), DF: math.Inf(1)}
	}
	d0 := 2 * trigammaInverse(evar)
	return Prior{S2: math.Exp(emean + mathext.Digamma(d0/2) - math.Log(d0/2)), DF: d0}
}

// trigamma returns ψ′(x) for x > 0: the recurrence ψ′(x) = ψ′(x+1) + 1/x²
// up to x ≥ 16, then the asymptotic series (error below 1e-16 there).
func trigamma(x float64) float64 {
	var acc float64
	for x < 16 {
		acc += 1 / (x * x)
		x++
	}
	z := 1 / (x * x)
	s := 1/x + z/2 + z/x*(1.0/6+z*(-1.0/30+z*(1.0/42+z*(-1.0/30+z*5.0/66))))
	return acc + s
}

// tetragamma returns ψ″(x) for x > 0, as trigamma does.
func tetragamma(x float64) float64 {
	var acc float64
	for x < 16 {
		acc -= 2 / (x * x * x)
		x++
	}
	z := 1 / (x * x)
	s := -z - z/x + z*z*(-0.5+z*(1.0/6+z*(-1.0/6+z*(3.0/10-z*5.0/6))))
	return acc + s
}

// trigammaInverse solves ψ′(x) = y for x, by limma's Newton iteration
// (trigammaInverse in limma).
func trigammaInverse(y float64) float64 {
	switch {
	case y > 1e7:
		return 1 / math.Sqrt(y)
	case y < 1e-6:
		return 1 / y
	}
	x := 0.5 + 1/y
	for range 50 {
		tri := trigamma(x)
		dif := tri * (1 - tri/y) / tetragamma(x)
		x += dif
		if -dif/x < 1e-8 {
			break
		}
	}
	return x
}

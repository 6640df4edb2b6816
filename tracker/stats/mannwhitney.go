package stats

import (
	"fmt"
	"math"
	"slices"
)

// An Alternative is the alternative hypothesis of a test, phrased about x
// relative to y.
type Alternative int

const (
	// TwoSided: x and y differ in either direction.
	TwoSided Alternative = iota
	// Less: x tends to be smaller than y.
	Less
	// Greater: x tends to be larger than y (scipy's alternative='greater'
	// with x first, R's wilcox.test(x, y, alternative="greater")).
	Greater
)

func (a Alternative) String() string {
	switch a {
	case TwoSided:
		return "two-sided"
	case Less:
		return "less"
	case Greater:
		return "greater"
	}
	return fmt.Sprintf("Alternative(%d)", int(a))
}

// Methods reported in MWResult.Method.
const (
	MethodExact     = "exact"      // exact null distribution, no ties
	MethodExactTies = "exact-ties" // exact null distribution given the ties
	MethodNormal    = "normal"     // normal approximation, tie and continuity corrected
)

// An MWResult is the outcome of a Mann-Whitney U test.
type MWResult struct {
	U      float64 // pairs (x_i, y_j) with x_i > y_j; a tie counts 1/2
	P      float64 // p-value under the chosen alternative
	Method string  // MethodExact, MethodExactTies or MethodNormal
}

// MannWhitney runs the Mann-Whitney U (Wilcoxon rank-sum) test of x
// against y. The p-value is exact when there are no ties and both samples
// have at most 50 values, exact given the tie structure when there are ties
// and both have at most 25 (the permutation distribution of the midrank
// sum, as R's coin::wilcox_test(distribution="exact"), not scipy's
// tie-less exact distribution), and otherwise from the normal approximation
// with tie and continuity corrections (as scipy's method='asymptotic' and
// R's wilcox.test(exact=FALSE, correct=TRUE)). A two-sided p-value is
// min(1, 2·min(lower tail, upper tail)), as in scipy and R.
//
// MannWhitney returns an error wrapping ErrEmptySample or ErrNonFinite for
// unusable samples.
func MannWhitney(x, y []float64, alt Alternative) (MWResult, error) {
	t, err := MannWhitneyTails(x, y)
	if err != nil {
		return MWResult{}, err
	}
	res := MWResult{U: t.U, Method: t.Method}
	switch alt {
	case Less:
		res.P = t.Less
	case Greater:
		res.P = t.Greater
	default:
		res.P = t.TwoSided()
	}
	return res, nil
}

// MWTails holds both one-sided p-values of one Mann-Whitney U test of x
// against y: Less (x tends smaller) and Greater (x tends larger).
type MWTails struct {
	U             float64 // pairs (x_i, y_j) with x_i > y_j; a tie counts 1/2
	Less, Greater float64 // the one-sided p-values
	Method        string  // MethodExact, MethodExactTies or MethodNormal
}

// TwoSided returns the two-sided p-value, min(1, 2·min(Less, Greater)).
func (t MWTails) TwoSided() float64 { return min(1, 2*min(t.Less, t.Greater)) }

// MannWhitneyTails runs the test of MannWhitney once and returns both
// one-sided p-values, ranking the samples only once. A caller that needs
// both directions (a regression test and an improvement test) should use
// it: it costs half of two MannWhitney calls.
func MannWhitneyTails(x, y []float64) (MWTails, error) {
	if err := checkSample("x", x); err != nil {
		return MWTails{}, err
	}
	if err := checkSample("y", y); err != nil {
		return MWTails{}, err
	}
	n, m := len(x), len(y)
	r := rankSamples(x, y, n <= exactTiesMax && m <= exactTiesMax)
	t := MWTails{U: float64(r.u2) / 2}
	switch {
	case !r.ties() && n <= exactMax && m <= exactMax:
		d := exactDist(n, m)
		t.Less, t.Greater, t.Method = d.le(t.U), d.ge(t.U), MethodExact
	case r.ties() && n <= exactTiesMax && m <= exactTiesMax:
		// Each tail is summed directly; the upper one as the lower tail of
		// U' = nm − U, which is U with the order of values reversed.
		rev := slices.Clone(r.groups)
		slices.Reverse(rev)
		t.Less, t.Greater = tieLE(n, r.groups, r.u2), tieLE(n, rev, 2*n*m-r.u2)
		t.Method = MethodExactTies
	default:
		t.Less = normalP(n, m, t.U, r.tieTerm, Less)
		t.Greater = normalP(n, m, t.U, r.tieTerm, Greater)
		t.Method = MethodNormal
	}
	return t, nil
}

// normalP returns the normal-approximation p-value with the tie-corrected
// variance and a continuity correction of 1/2 towards the mean. Upper
// tails come from erfc, so p-values near 1e-300 keep their precision.
func normalP(n, m int, u, tieTerm float64, alt Alternative) float64 {
	nm, N := float64(n*m), float64(n+m)
	sigma := math.Sqrt(nm / 12 * ((N + 1) - tieTerm/(N*(N-1))))
	if sigma == 0 { // every value equal: no evidence either way
		return 1
	}
	stat := u // the U whose upper tail is the p-value
	switch alt {
	case Less:
		stat = nm - u
	case TwoSided:
		stat = max(u, nm-u)
	}
	p := normalSF((stat - nm/2 - 0.5) / sigma)
	if alt == TwoSided {
		p = min(1, 2*p)
	}
	return p
}

// normalSF returns P(Z > z) for a standard normal Z without the
// cancellation of 1 − Φ(z).
func normalSF(z float64) float64 { return math.Erfc(z/math.Sqrt2) / 2 }

// normalQuantile returns the z with P(Z ≤ z) = p.
func normalQuantile(p float64) float64 { return -math.Sqrt2 * math.Erfcinv(2*p) }

// ranks describes the pooled ranking of two samples.
type ranks struct {
	u2      int     // 2U of x, an integer because ties count 1/2
	groups  []int   // sizes of the groups of equal values, in increasing order
	tieTerm float64 // Σ (t³ − t) over the groups
}

func (r ranks) ties() bool { return r.tieTerm != 0 }

// rankSamples computes U of x and the tie structure by merging x and y,
// or sorted copies of them where they are not sorted. It lists the groups
// only when asked (withGroups): only the exact test with ties, for small
// samples, reads them, and a comparison of 10k benchmarks would otherwise
// allocate them 10k times.
func rankSamples(x, y []float64, withGroups bool) ranks {
	xs, ys := sortedView(x), sortedView(y)
	var r ranks
	if withGroups {
		r.groups = make([]int, 0, len(xs)+len(ys))
	}
	i, j := 0, 0
	for i < len(xs) || j < len(ys) {
		v := math.Inf(1)
		if i < len(xs) {
			v = xs[i]
		}
		if j < len(ys) && ys[j] < v {
			v = ys[j]
		}
		a, b := i, j
		for i < len(xs) && xs[i] == v {
			i++
		}
		for j < len(ys) && ys[j] == v {
			j++
		}
		nx, ny := i-a, j-b
		r.u2 += 2*nx*b + nx*ny
		t := nx + ny
		if withGroups {
			r.groups = append(r.groups, t)
		}
		r.tieTerm += float64(t*t*t - t)
	}
	return r
}

// checkSample rejects empty samples and non-finite values.
func checkSample(name string, x []float64) error {
	if len(x) == 0 {
		return fmt.Errorf("stats: sample %s: %w", name, ErrEmptySample)
	}
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("stats: sample %s[%d] = %v: %w", name, i, v, ErrNonFinite)
		}
	}
	return nil
}

// sortedView returns x when it is sorted and a sorted copy otherwise.
func sortedView(x []float64) []float64 {
	if slices.IsSorted(x) {
		return x
	}
	y := slices.Clone(x)
	slices.Sort(y)
	return y
}

// sortFloats sorts x, which holds no NaN, in increasing order. Callers
// that keep their samples sorted skip the sort.
func sortFloats(x []float64) {
	if !slices.IsSorted(x) {
		slices.Sort(x)
	}
}

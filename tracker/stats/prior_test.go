package stats

import (
	"math"
	"testing"
)

// TestFitPriorReference pins FitPrior to limma's fitFDist written out with
// scipy 1.10.1 (testdata/gen_runlevel.py; its output is quoted).
func TestFitPriorReference(t *testing.T) {
	// fitprior: s2=0.0004656694494631402 df=1.4794322651287901
	// fitprior moderated[3]: 0.0022299536676068776
	s2 := []float64{0.0004, 0.0011, 0.00002, 0.0031, 0.0007, 0.0002, 0.009, 0.0015}
	df := []float64{2, 2, 4, 3, 2, 5, 2, 6}
	p := FitPrior(s2, df)
	if !relNear(p.S2, 0.0004656694494631402, 1e-9) || !relNear(p.DF, 1.4794322651287901, 1e-9) {
		t.Errorf("FitPrior = %+v, want s2 0.0004656694494631402 df 1.4794322651287901", p)
	}
	v, d := p.Moderate(s2[3], df[3])
	if !relNear(v, 0.0022299536676068776, 1e-9) || !relNear(d, 1.4794322651287901+3, 1e-12) {
		t.Errorf("Moderate = %v on %v df", v, d)
	}
	// fitprior equal: s2=0.001 df=inf
	q := FitPrior([]float64{0.001, 0.00101, 0.00099, 0.001}, []float64{3, 3, 3, 3})
	if !relNear(q.S2, 0.001, 1e-12) || !math.IsInf(q.DF, 1) {
		t.Errorf("equal variances: %+v, want the pooled 0.001 on infinite df", q)
	}
	if v, d := q.Moderate(0.5, 3); v != q.S2 || !math.IsInf(d, 1) {
		t.Errorf("an infinite prior moderates to %v on %v df", v, d)
	}
}

// TestPolygamma pins the series behind FitPrior (scipy.special.polygamma).
func TestPolygamma(t *testing.T) {
	// trigamma(0.3)=12.245364546107734 trigamma(7.5)=0.1426158966967038
	// tetragamma(0.3)=-75.272536588726012 tetragamma(12)=-0.0075472053689989143
	for _, c := range []struct{ got, want float64 }{
		{trigamma(0.3), 12.245364546107734}, {trigamma(7.5), 0.1426158966967038},
		{tetragamma(0.3), -75.272536588726012}, {tetragamma(12), -0.0075472053689989143},
	} {
		if !relNear(c.got, c.want, 1e-13) {
			t.Errorf("got %.17g, want %.17g", c.got, c.want)
		}
	}
	for _, y := range []float64{1e-3, 0.1, 1, 30} {
		if x := trigammaInverse(y); !relNear(trigamma(x), y, 1e-8) {
			t.Errorf("trigamma(trigammaInverse(%v)) = %v", y, trigamma(x))
		}
	}
}

// TestFitPriorDegenerate: too few variances give no prior; a prior of no
// weight moderates nothing; zero variances do not send the fit to −Inf.
func TestFitPriorDegenerate(t *testing.T) {
	if p := FitPrior([]float64{0.001}, []float64{3}); p.DF != 0 {
		t.Errorf("one variance: %+v, want no prior", p)
	}
	if p := FitPrior([]float64{0.001, 0.002}, []float64{0, 0}); p.DF != 0 {
		t.Errorf("no degrees of freedom: %+v, want no prior", p)
	}
	if v, d := (Prior{}).Moderate(0.004, 2); v != 0.004 || d != 2 {
		t.Errorf("no prior moderated to %v on %v", v, d)
	}
	p := FitPrior([]float64{0, 0, 0.001, 0.002, 0.0005}, []float64{2, 2, 2, 2, 2})
	if !(p.S2 > 0) || math.IsNaN(p.DF) {
		t.Errorf("with zero variances: %+v", p)
	}
}

// TestEstimateSegmented: a step in the history is not noise, a dropped job
// is left out, and the rounds of every job still count.
func TestEstimateSegmented(t *testing.T) {
	hist := [][]float64{{0.2, 0.2}, {0.21, 0.21}, {0.19, 0.19}, {0, 0}, {0.01, 0.01}, {-0.01, -0.01}}
	flat := EstimateSpread(hist, nil)
	seg := EstimateSegmented(hist, nil, []int{0, 0, 0, 1, 1, 1}, nil)
	// Successive differences 0.01, 0.02 within each level: (2 × 0.0005)/(2 × 4)
	// on 2·4²/(3·4 − 1) = 32/11 effective degrees of freedom.
	if !(flat.JobVar > 0.003) || !relNear(seg.JobVar, 0.000125, 1e-9) || !relNear(seg.DFBetween, 32.0/11, 1e-12) {
		t.Errorf("flat %+v; segmented %+v, want JobVar 1.25e-4 on 32/11 df", flat, seg)
	}
	// The oldest job dropped: 3 differences are left.
	drop := EstimateSegmented(hist, nil, []int{0, 0, 0, 1, 1, 1}, []bool{false, false, false, false, false, true})
	if !relNear(drop.DFBetween, 18.0/8, 1e-12) || !relNear(drop.JobVar, (0.0005+0.0001)/6, 1e-9) {
		t.Errorf("dropped: %+v", drop)
	}
}

// TestOutlierJobs: an isolated bad job is marked, a step is not, nor the
// newest job.
func TestOutlierJobs(t *testing.T) {
	x := []float64{0, 0.002, -0.001, 0.26, 0.001, 0, 0.002, -0.002, 0.001}
	want := []bool{false, false, false, true, false, false, false, false, false}
	if got := OutlierJobs(x); !equalBools(got, want) {
		t.Errorf("outlier: %v, want %v", got, want)
	}
	step := []float64{0, 0.002, -0.001, 0.001, 0.18, 0.181, 0.179, 0.18}
	if got := OutlierJobs(step); !equalBools(got, make([]bool, len(step))) {
		t.Errorf("step: %v, want none", got)
	}
	newest := []float64{0, 0.002, -0.001, 0.001, 0, 0.3}
	if got := OutlierJobs(newest); got[5] {
		t.Errorf("newest marked: %v", got)
	}
	first := []float64{0.3, 0, 0.002, -0.001, 0.001}
	if got := OutlierJobs(first); !got[0] {
		t.Errorf("oldest not marked: %v", got)
	}
}

func equalBools(a, b []bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestModerateUnreplicated: where no job of the history had two rounds, the
// prior is a floor on the job means' variance that lends no degrees of
// freedom (a quiet history of one speed level stays as wide as the
// family); with replicated jobs it moderates both ways and lends its
// degrees of freedom.
func TestModerateUnreplicated(t *testing.T) {
	prior := Prior{S2: 1e-4, DF: 3}
	// Three single-process jobs agreeing within 0.2%: successive
	// differences 0.001, 0.001: JobVar (2 × 1e-6)/(2 × 2) = 5e-7 on
	// 2·2²/(3·2 − 1) = 8/5 df.
	quiet := EstimateSpread([][]float64{{0.001}, {0}, {0.001}}, nil)
	if !relNear(quiet.JobVar, 5e-7, 1e-9) || quiet.InvRounds != 1 || !relNear(quiet.DFBetween, 1.6, 1e-12) {
		t.Fatalf("quiet single-round history: %+v", quiet)
	}
	m := quiet.Moderate(prior, Prior{})
	if m.JobVar != 1e-4 || m.DFBetween != 1.6 || m.Between != 1e-4 || m.RunVar() != 1e-4 {
		t.Errorf("quiet single-round history moderated to %+v, want JobVar = Between = the prior's 1e-4 on its own 1.6 df", m)
	}
	// A wide one keeps its own variance: 0.03, 0.03 → 4.5e-4.
	wide := EstimateSpread([][]float64{{0.03}, {0}, {0.03}}, nil).Moderate(prior, Prior{})
	if !relNear(wide.JobVar, 4.5e-4, 1e-9) || wide.DFBetween != 1.6 {
		t.Errorf("wide single-round history moderated to %+v, want its own 4.5e-4 on 1.6 df", wide)
	}
	// The candidate's rounds do not make the history replicated: the same
	// floor, and the rounds' variance moderated as before.
	withCand := EstimateSpread([][]float64{{0.001}, {0}, {0.001}}, []float64{0.01, 0.012, 0.011}).Moderate(prior, Prior{S2: 2e-6, DF: 4})
	// Within: 2e-6 on 2 df from the rounds, moderated (4·2e-6 + 2·1e-6)/6.
	if withCand.JobVar != 1e-4 || withCand.DFBetween != 1.6 || !relNear(withCand.Within, (4*2e-6+2*1e-6)/6, 1e-9) || withCand.DFWithin != 6 {
		t.Errorf("single-round history, 3-round candidate: %+v", withCand)
	}
	// Replicated jobs: moderated towards the prior on 1.6 + 3 df, below it.
	rep := EstimateSpread([][]float64{{0.001, 0.001}, {0, 0}, {0.001, 0.001}}, nil)
	rm := rep.Moderate(prior, Prior{})
	want := (3*1e-4 + 1.6*rep.JobVar) / 4.6
	if !relNear(rm.JobVar, want, 1e-12) || !relNear(rm.DFBetween, 4.6, 1e-12) || !(rm.JobVar < prior.S2) {
		t.Errorf("replicated history moderated to %+v, want JobVar %v on 4.6 df", rm, want)
	}
}

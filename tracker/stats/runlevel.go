package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// A Spread is an estimate of how much a per-run summary (perfgate uses the
// log of a run's median) moves between runs of the same code, in two
// components: between jobs (CI jobs: separate processes, possibly days and
// reboots apart) and between the rounds of one job (separate processes in
// one job). Samples of one process share that process's state, so the
// spread between runs is what a verdict across runs must be judged against,
// not the spread of the samples within a run.
type Spread struct {
	// Between is the variance of the job effect (≥ 0) and DFBetween its
	// degrees of freedom; DFBetween is 0 when fewer than two jobs were seen.
	Between, DFBetween float64
	// Within is the variance between the rounds of one job and DFWithin its
	// degrees of freedom; DFWithin is 0 when no job had two rounds.
	Within, DFWithin float64
	// JobVar is the sample variance of the job means that Between was
	// derived from, and InvRounds the mean of 1/rounds over those jobs: a
	// job mean varies by Between + Within·(1/rounds).
	JobVar, InvRounds float64
}

// Known reports whether the spread could be estimated at all: from two jobs
// or more, or from the rounds of a replicated job.
func (s Spread) Known() bool { return s.DFBetween > 0 || s.DFWithin > 0 }

// RunVar returns the variance of one run's summary about the true value:
// the job effect plus the round effect.
func (s Spread) RunVar() float64 { return s.Between + s.Within }

// EstimateSpread estimates the run-to-run spread from the history of jobs
// (each job the summaries of its rounds; jobs with no rounds are skipped)
// and the candidate's rounds, which add to the within-job estimate only.
// It is EstimateSegmented with every job in one segment and none dropped.
func EstimateSpread(history [][]float64, cand []float64) Spread {
	return EstimateSegmented(history, cand, nil, nil)
}

// EstimateSegmented is EstimateSpread for a history cut into levels:
// history is in time order (newest first), segment[j] names job j's
// segment (nil: one segment) and drop[j] leaves job j's mean out (an
// isolated outlier job; nil: none). The variance of the job means is
// estimated within the segments from successive differences (von
// Neumann's mean square successive difference: the sum of the squared
// differences of neighbouring job means over twice their number), so that
// neither a step or a bad job on the baseline branch, nor a drift too slow
// for a change point, is taken for noise: a drift of d per job adds d²/2.
// For a level that holds still it is unbiased, on 2D²/(3D − 1) effective
// degrees of freedom for D differences (the χ² matching the variance of
// the estimate; D for the sample variance). Every job's rounds, dropped or
// not, add to the within-job estimate.
//
// Between is the excess of the job means' variance over what the rounds
// explain (the classical one-way random-effects estimate).
func EstimateSegmented(history [][]float64, cand []float64, segment []int, drop []bool) Spread {
	var s Spread
	var ss, df float64
	for _, job := range append(history, cand) {
		if len(job) > 1 {
			ss += sumSq(job, mean(job))
			df += float64(len(job) - 1)
		}
	}
	if df > 0 {
		s.Within, s.DFWithin = ss/df, df
	}
	var sq, inv float64
	var diffs, n int
	prev, prevSeg := math.NaN(), 0
	for j, job := range history {
		if len(job) == 0 || (drop != nil && drop[j]) {
			continue
		}
		id := 0
		if segment != nil {
			id = segment[j]
		}
		m := mean(job)
		if !math.IsNaN(prev) && id == prevSeg {
			sq += (m - prev) * (m - prev)
			diffs++
		}
		prev, prevSeg = m, id
		inv += 1 / float64(len(job))
		n++
	}
	if diffs > 0 {
		d := float64(diffs)
		s.InvRounds = inv / float64(n)
		s.JobVar = sq / (2 * d)
		s.DFBetween = 2 * d * d / (3*d - 1)
		s.Between = max(0, s.JobVar-s.Within*s.InvRounds)
	}
	return s
}

// Moderate returns s with its two variances moderated towards the priors
// of the comparison's benchmarks (Prior.Moderate): the job means' variance
// towards jobs, the rounds' towards rounds, each gaining its prior's
// degrees of freedom. A prior can raise a lucky-low estimate or lower an
// unlucky-high one; either way the test gains the degrees of freedom the
// other benchmarks lend it.
//
// Where no job of the history had two rounds (InvRounds = 1), nothing
// tells this benchmark's job effect from its process effect, and a
// benchmark whose processes land in one of a few discrete speed levels
// looks as quiet as the family for as many jobs as happened to land in one
// level. There the prior is a floor, not evidence: the job means' variance
// is the larger of its own estimate and the prior's S2, on its own degrees
// of freedom. (Moderating it towards the family's variance and lending it
// the prior's degrees of freedom, which the fit put below one on the H100's
// single-process sets and compare clamps to one, made a process in the
// other level a confident regression: docs/verdicts.md, issue 9's sets.)
func (s Spread) Moderate(jobs, rounds Prior) Spread {
	if s.DFWithin > 0 {
		s.Within, s.DFWithin = rounds.Moderate(s.Within, s.DFWithin)
	}
	if s.DFBetween > 0 {
		if s.InvRounds >= 1 && jobs.DF > 0 && jobs.S2 > 0 {
			s.JobVar = max(s.JobVar, jobs.S2)
		} else {
			s.JobVar, s.DFBetween = jobs.Moderate(s.JobVar, s.DFBetween)
		}
	}
	s.Between = max(0, s.JobVar-s.Within*s.InvRounds)
	return s
}

// PriorDF is the weight, in degrees of freedom, of the assumed run-to-run
// spread (the prior of RunLevelTest) where the runs cannot measure it: as
// much as seven jobs would give. With infinite weight, a benchmark whose
// jobs move 5% (where ±3% is assumed) is a false regression in about 8% of
// one-run-a-side A/A checks at α = 1%; with 6 degrees of freedom, 3%; a 20%
// slowdown then still reaches p ≈ 0.003.
const PriorDF = 6

// A RunTest is the run-level test of a change: the candidate's mean summary
// against the mean of the baseline jobs' mean summaries, with a standard
// error built from a Spread.
type RunTest struct {
	Delta float64 // candidate − baseline, in the summary's scale (log)
	Base  float64 // the baseline's mean of job means, in that scale
	SE    float64 // the standard error of Delta
	DF    float64 // degrees of freedom of the t reference; +Inf: normal
	// Greater and Less are the one-sided p-values for "the candidate's
	// summary is larger" and "smaller".
	Greater, Less float64
}

// Quantile returns the q-quantile of the test's reference distribution
// (Student's t with DF degrees of freedom, or the standard normal).
func (t RunTest) Quantile(q float64) float64 {
	if math.IsInf(t.DF, 1) {
		return distuv.UnitNormal.Quantile(q)
	}
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: t.DF}.Quantile(q)
}

// RunLevelTest compares the candidate's rounds with the baseline jobs
// (each the summaries of its rounds) under the spread s. When s is not
// Known, prior is taken as the run-to-run standard deviation of a single
// run, as if estimated on PriorDF degrees of freedom: a guess, not a
// measurement, so its t reference has heavy tails. The result has NaN p-values when
// either side is empty.
//
// The variance of Delta is Between·(1 + 1/K) + Within·(1/R + Σ1/(K²·Rⱼ))
// for K baseline jobs of Rⱼ rounds and a candidate of R rounds. Its degrees
// of freedom come from the Welch–Satterthwaite approximation over the two
// estimated components.
func RunLevelTest(base [][]float64, cand []float64, s Spread, prior float64) RunTest {
	nan := math.NaN()
	t := RunTest{Delta: nan, Base: nan, SE: nan, DF: nan, Greater: nan, Less: nan}
	var jobMeans []float64
	var invSum float64
	for _, job := range base {
		if len(job) > 0 {
			jobMeans = append(jobMeans, mean(job))
			invSum += 1 / float64(len(job))
		}
	}
	if len(jobMeans) == 0 || len(cand) == 0 {
		return t
	}
	k, r := float64(len(jobMeans)), float64(len(cand))
	t.Base = mean(jobMeans)
	t.Delta = mean(cand) - t.Base
	cB := 1 + 1/k            // weight of the job effect
	cW := 1/r + invSum/(k*k) // weight of the round effect
	var v float64
	switch {
	case !s.Known():
		// One run a side: nothing says how runs move; take the prior as the
		// spread of a job, as if measured on PriorDF degrees of freedom.
		v, t.DF = prior*prior*cB, PriorDF
	case s.DFBetween == 0:
		// Rounds, but one job: the job effect is not estimable, so the
		// prior stands in for it (a term on PriorDF degrees of freedom).
		w, p := s.Within*cW, prior*prior*cB
		v, t.DF = w+p, satterthwaite(w+p, [][2]float64{{w, s.DFWithin}, {p, PriorDF}})
	case s.DFWithin == 0:
		// Every job one round: the job means' variance is all there is, and
		// it is exact for a candidate of one round too.
		v, t.DF = s.JobVar*cB, s.DFBetween
	default:
		// Between = JobVar − Within·InvRounds: write v over the two
		// independent estimates and apply Welch–Satterthwaite. With equal
		// rounds everywhere the round term cancels and this is the exact t
		// test of job means. v never drops below what the rounds alone
		// give, even where the job means vary less than their rounds.
		a, b := cB*s.JobVar, s.Within*(cW-cB*s.InvRounds)
		v = a + b
		// With more candidate rounds than the baseline jobs have, b is
		// negative and a and b can nearly cancel, which sends the
		// Welch–Satterthwaite degrees of freedom towards 0 (a CI of
		// −84% … +547% around a run spread of ±0.0%): they are held at
		// no fewer than the job means' own.
		t.DF = max(satterthwaite(v, [][2]float64{{a, s.DFBetween}, {b, s.DFWithin}}), min(s.DFBetween, s.DFWithin))
		if floor := s.Within * cW; v < floor {
			v, t.DF = floor, s.DFWithin
		}
	}
	t.SE = math.Sqrt(v)
	t.Greater, t.Less = t.tails()
	return t
}

// satterthwaite returns the Welch–Satterthwaite degrees of freedom of v, a
// sum of independent variance terms {value, df} plus terms known exactly.
func satterthwaite(v float64, terms [][2]float64) float64 {
	var d float64
	for _, t := range terms {
		d += t[0] * t[0] / t[1]
	}
	// Beyond a million degrees of freedom t is the normal to 1e-6 (and
	// gonum's t quantile fails): terms whose weight is 0 but for rounding
	// (equal rounds everywhere) leave d at 1e-40 and no information.
	if df := v * v / d; d > 0 && df < 1e6 {
		return df
	}
	return math.Inf(1)
}

func (t RunTest) tails() (greater, less float64) {
	if t.SE == 0 {
		switch {
		case t.Delta > 0:
			return 0, 1
		case t.Delta < 0:
			return 1, 0
		}
		return 1, 1
	}
	z := t.Delta / t.SE
	if math.IsInf(t.DF, 1) {
		return distuv.UnitNormal.Survival(z), distuv.UnitNormal.CDF(z)
	}
	d := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: t.DF}
	return d.Survival(z), d.CDF(z)
}

func mean(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

func sumSq(x []float64, m float64) float64 {
	var s float64
	for _, v := range x {
		s += (v - m) * (v - m)
	}
	return s
}

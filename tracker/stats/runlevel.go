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
//
// Between comes from the sample variance of the job means, the classical
// one-way random-effects estimate: unbiased and, with normal effects, giving
// an exact t test; a level shift inside the history inflates it, which makes
// verdicts more cautious, never less.
func EstimateSpread(history [][]float64, cand []float64) Spread {
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
	var means []float64
	var inv float64
	for _, job := range history {
		if len(job) > 0 {
			means = append(means, mean(job))
			inv += 1 / float64(len(job))
		}
	}
	if len(means) < 2 {
		return s
	}
	s.InvRounds = inv / float64(len(means))
	s.JobVar = sumSq(means, mean(means)) / float64(len(means)-1)
	s.DFBetween = float64(len(means) - 1)
	s.Between = max(0, s.JobVar-s.Within*s.InvRounds)
	return s
}

// A RunTest is the run-level test of a change: the candidate's mean summary
// against the mean of the baseline jobs' mean summaries, with a standard
// error built from a Spread.
type RunTest struct {
	Delta float64 // candidate − baseline, in the summary's scale (log)
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
// run, known exactly (a normal reference). The result has NaN p-values when
// either side is empty.
//
// The variance of Delta is Between·(1 + 1/K) + Within·(1/R + Σ1/(K²·Rⱼ))
// for K baseline jobs of Rⱼ rounds and a candidate of R rounds. Its degrees
// of freedom come from the Welch–Satterthwaite approximation over the two
// estimated components.
func RunLevelTest(base [][]float64, cand []float64, s Spread, prior float64) RunTest {
	nan := math.NaN()
	t := RunTest{Delta: nan, SE: nan, DF: nan, Greater: nan, Less: nan}
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
	t.Delta = mean(cand) - mean(jobMeans)
	cB := 1 + 1/k            // weight of the job effect
	cW := 1/r + invSum/(k*k) // weight of the round effect
	var v float64
	switch {
	case !s.Known():
		// One run a side: nothing says how runs move; take the prior as the
		// spread of a job, known exactly.
		v, t.DF = prior*prior*cB, math.Inf(1)
	case s.DFBetween == 0:
		// Rounds, but one job: the job effect is not estimable, so the
		// prior stands in for it (a term with infinite degrees of freedom).
		w := s.Within * cW
		v, t.DF = w+prior*prior*cB, satterthwaite(w+prior*prior*cB, [][2]float64{{w, s.DFWithin}})
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
		t.DF = satterthwaite(v, [][2]float64{{a, s.DFBetween}, {b, s.DFWithin}})
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
	if d == 0 {
		return math.Inf(1)
	}
	return v * v / d
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

// PeerWeight is the weight, in degrees of freedom, of the peer variance in
// FloorSpread: one job's worth.
const PeerWeight = 1

// FloorSpread guards a spread estimate against luck: a few jobs whose
// medians happen to agree (timings quantised to the timer's resolution
// agree exactly) would make any difference significant. The job means'
// variance is raised to at least (PeerWeight·peer + df·JobVar)/(PeerWeight
// + df), a one-sided version of the empirical-Bayes moderation of Smyth
// (2004) towards peer, the typical variance of the other benchmarks of the
// comparison; the degrees of freedom are not raised, and an estimate above
// peer is left alone, so the floor can only make a verdict more cautious.
func FloorSpread(s Spread, peer float64) Spread {
	if s.DFBetween == 0 || !(peer > 0) {
		return s
	}
	floor := (PeerWeight*peer + s.DFBetween*s.JobVar) / (PeerWeight + s.DFBetween)
	if s.JobVar >= floor {
		return s
	}
	s.JobVar = floor
	s.Between = max(0, s.JobVar-s.Within*s.InvRounds)
	return s
}

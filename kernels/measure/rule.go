package measure

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// A Rule decides when a benchmark has enough samples, as nvbench does:
// at least MinSamples samples and MinGPU of measured GPU time, then stop as
// soon as the relative standard deviation is at most TargetCV, or once it has
// stabilised (it will not get better by waiting); never run past MaxTime of
// wall time or MaxSamples samples. The sample cap departs from nvbench on
// purpose: every sample goes into the results and into the rank tests, and
// 2000 samples decide a 1% shift as well as 100,000 do.
type Rule struct {
	MinSamples int
	MinGPU     time.Duration
	MaxTime    time.Duration
	MaxSamples int
	TargetCV   float64 // 0.005 = 0.5%
	// StableSpread: the CV is stable when the last CVs seen (the last fifth of
	// the samples, at least StableWindow) stay within ±StableSpread of the
	// middle of their range (half the range at most StableSpread × midpoint).
	StableSpread float64
	StableWindow int
	// Pace is how samples are spaced when the GPU throttles (NewPacer).
	Pace string
	// MinWarmup is the shortest warm-up (0: minWarmup); the warm-up goes on
	// while the SM clock rises.
	MinWarmup time.Duration
}

// A Budget is what a run asks of the stop rule: the pull-request check's
// sample cap (CI: the ci size preset), lower budgets for smoke runs (Fast),
// a time cap per benchmark (MaxTime, 0: the rule's) and the pacing (Pace).
type Budget struct {
	CI, Fast bool
	MaxTime  time.Duration
	Pace     string
}

// RuleFor returns the stop rule for b: nvbench's defaults (10 samples,
// 0.5 s, 0.5%, 15 s), or much lower budgets with Fast. With CI a benchmark
// stops after CIMaxSamples samples: a launch-bound sequence (10,000
// launches, tens of milliseconds a sample) stops on the sample count well
// before the 5 s cap, so the run's length does not depend on the wall clock,
// and the rounds of a PR check pool the samples.
func RuleFor(b Budget) Rule {
	r := Rule{MinSamples: 10, MinGPU: 500 * time.Millisecond, MaxTime: DefaultMaxTime,
		MaxSamples: 2000, TargetCV: 0.005, StableSpread: 0.02, StableWindow: 50}
	if b.CI {
		r.MinGPU, r.MaxTime, r.MaxSamples, r.StableWindow = 100*time.Millisecond, CIMaxTime, CIMaxSamples, 20
	}
	if b.Fast {
		r.MinGPU, r.MaxTime, r.MaxSamples, r.StableWindow = FastMinGPU, FastMaxTime, min(r.MaxSamples, FastMaxSamples), 20
	}
	if b.MaxTime > 0 {
		r.MaxTime = b.MaxTime
	}
	r.Pace = b.Pace
	return r
}

// The budgets RuleFor gives, which perfgate run's help and the docs
// (docs/gpu.md, docs/config.md) cite: the time cap per benchmark
// (DefaultMaxTime; CIMaxTime with Budget.CI), and the smoke runs' GPU
// time, time cap and sample cap (Budget.Fast).
const (
	DefaultMaxTime = 15 * time.Second
	CIMaxTime      = 5 * time.Second
	CIMaxSamples   = 40 // the sample cap of Budget.CI
	FastMinGPU     = 50 * time.Millisecond
	FastMaxTime    = time.Second
	FastMaxSamples = 500
)

// Stop reasons recorded in a benchmark's info["stop"].
const (
	stopCV      = "rel-std"
	stopStable  = "rel-std-stable"
	stopMaxTime = "max-time"
	stopMaxN    = "max-samples"
)

// A Sampler accumulates samples and says when to stop. It keeps a running
// mean and variance (Welford) so each check is O(1) apart from the window.
type Sampler struct {
	Rule    Rule
	Samples []float64
	gpu     time.Duration
	mean    float64
	m2      float64
	cvs     []float64 // the CV after each sample, once MinSamples are in
}

// Add records one sample taking gpu time on the device.
func (s *Sampler) Add(v float64, gpu time.Duration) {
	s.Samples = append(s.Samples, v)
	s.gpu += gpu
	d := v - s.mean
	s.mean += d / float64(len(s.Samples))
	s.m2 += d * (v - s.mean)
	if len(s.Samples) >= s.Rule.MinSamples {
		s.cvs = append(s.cvs, s.CV())
	}
}

// CV returns the relative standard deviation (sample std / mean) so far.
func (s *Sampler) CV() float64 {
	n := len(s.Samples)
	if n < 2 || s.mean == 0 {
		return math.Inf(1)
	}
	return math.Sqrt(s.m2/float64(n-1)) / math.Abs(s.mean)
}

// Done reports whether to stop after wall time elapsed, and why.
func (s *Sampler) Done(elapsed time.Duration) (bool, string) {
	n := len(s.Samples)
	switch {
	case elapsed >= s.Rule.MaxTime:
		return true, stopMaxTime
	case n >= s.Rule.MaxSamples:
		return true, stopMaxN
	case n < s.Rule.MinSamples || s.gpu < s.Rule.MinGPU:
		return false, ""
	case s.CV() <= s.Rule.TargetCV:
		return true, stopCV
	case s.stable():
		return true, stopStable
	}
	return false, ""
}

// stable reports whether the recent CVs have stopped moving.
func (s *Sampler) stable() bool {
	w := max(s.Rule.StableWindow, len(s.Samples)/5)
	if len(s.cvs) < w {
		return false
	}
	recent := s.cvs[len(s.cvs)-w:]
	lo, hi := slices.Min(recent), slices.Max(recent)
	mid := (lo + hi) / 2
	return mid > 0 && (hi-lo)/2 <= s.Rule.StableSpread*mid
}

// StopDetail describes why a Sampler stopped, for info["stop"].
func StopDetail(reason string, cv float64, r Rule) string {
	switch reason {
	case stopCV:
		return fmt.Sprintf("%s %.3f%% <= %.2f%%", reason, cv*100, r.TargetCV*100)
	case stopStable:
		return fmt.Sprintf("%s at %.3f%%", reason, cv*100)
	case stopMaxTime:
		return fmt.Sprintf("%s %v (rel-std %.3f%%)", reason, r.MaxTime, cv*100)
	}
	return fmt.Sprintf("%s %d (rel-std %.3f%%)", reason, r.MaxSamples, cv*100)
}

// ClockFilter drops the samples taken while the SM clock was below frac of
// the run's median clock (a throttled or not-yet-boosted GPU). Clocks of 0
// are unknown (no NVML) and never dropped. It returns the kept samples, how
// many were dropped, and the median clock.
func ClockFilter(samples, clocks []float64, frac float64) (kept []float64, dropped int, median float64) {
	var known []float64
	for _, c := range clocks {
		if c > 0 {
			known = append(known, c)
		}
	}
	if len(known) == 0 {
		return slices.Clone(samples), 0, 0
	}
	median = Median(known)
	for i, v := range samples {
		if clocks[i] > 0 && clocks[i] < frac*median {
			dropped++
			continue
		}
		kept = append(kept, v)
	}
	return kept, dropped, median
}

// ManyDrops says when a run's clock drops make it suspect: more than 5%.
func ManyDrops(dropped, total int) bool { return total > 0 && float64(dropped) > 0.05*float64(total) }

// BatchSize returns how many back-to-back launches one batch sample needs so
// that it lasts at least target, given one launch takes about per; clamped to
// [1, limit].
func BatchSize(per, target time.Duration, limit int) int {
	if per <= 0 {
		return limit
	}
	n := int((target + per - 1) / per)
	return min(max(n, 1), limit)
}

// Median returns the median of x (NaN when empty). It does not modify x.
func Median(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	s := slices.Clone(x)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// RelStd returns the sample standard deviation of x over its mean.
func RelStd(x []float64) float64 {
	sd, mean := stdDev(x)
	return sd / mean
}

// stdDev returns the sample standard deviation (n−1) of x and its mean;
// NaN with fewer than 2 values.
func stdDev(x []float64) (sd, mean float64) {
	if len(x) < 2 {
		return math.NaN(), math.NaN()
	}
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return math.Sqrt(ss / float64(len(x)-1)), mean
}

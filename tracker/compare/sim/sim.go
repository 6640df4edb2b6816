// Package sim simulates perfgate checks from measured run-to-run spreads:
// a main-branch history of jobs, each job some rounds (processes) of many
// samples, and a pull request judged against it with package compare. It
// answers how often a check fails when nothing changed, how often it catches
// a slowdown, and how often the reported interval covers the truth
// (docs/verdicts.md).
//
// Everything is seeded and pure; the package imports only tracker/model,
// tracker/compare and the standard library.
package sim

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
)

// A Bench describes one benchmark's noise: the run-to-run spread (standard
// deviation of a run's log median), the within-run spread (of the log of a
// sample) and the samples a run takes.
type Bench struct {
	Name            string
	RunSD, WithinCV float64
	Samples         int
}

// Config is one simulated setting.
type Config struct {
	Benches    []Bench // drawn from, with replacement, for each PR
	PerPR      int     // benchmarks in one PR check
	History    int     // main-branch jobs in the history (N)
	Baseline   int     // the newest K of them are the baseline
	Rounds     int     // rounds (processes) per job, history and PR alike
	Scale      float64 // multiplies every RunSD (1: as measured)
	JobShare   float64 // the share of the run variance that is per job, not per round (0: all per round)
	MaxSamples int     // caps Bench.Samples to keep the simulation fast (0: no cap)
	// Confirm is how many confirmation rounds re-run a failed check's
	// regressions in the same job (0: none); the check then fails only on
	// regressions that hold on the combined rounds, as perfgate check
	// --confirm and the action do.
	Confirm int
	Options compare.Options
}

// A PR is the outcome of one simulated check.
type PR struct {
	Failed bool                // after confirmation, when Config.Confirm > 0
	Comp   *compare.Comparison // the first check
	Truth  map[string]float64  // benchmark name → true change (a fraction)
}

// Run simulates one PR check with seed, every benchmark unchanged.
func Run(cfg Config, seed uint64) (PR, error) { return runWith(cfg, seed, -1, Bench{}, 1) }

// runWith simulates one PR check with seed; when pos ≥ 0 the PR's pos-th
// benchmark is target, slowed by factor.
func runWith(cfg Config, seed uint64, pos int, target Bench, factor float64) (PR, error) {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	benches := make([]Bench, cfg.PerPR)
	for i := range benches {
		benches[i] = cfg.Benches[rng.IntN(len(cfg.Benches))]
		if i == pos {
			benches[i] = target
		}
		benches[i].Name = fmt.Sprintf("b%03d/%s", i, benches[i].Name)
	}
	slow := func(i int) float64 {
		if i == pos {
			return factor
		}
		return 1
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	effects := func() []float64 {
		e := make([]float64, len(benches))
		for i, b := range benches {
			e[i] = math.Sqrt(cfg.JobShare) * cfg.Scale * b.RunSD * rng.NormFloat64()
		}
		return e
	}
	job := func(id string, at int, factor func(i int) float64, branch string, jobEff []float64, rounds int) []*model.Results {
		var runs []*model.Results
		for r := range rounds {
			res := &model.Results{Schema: model.Schema, Run: model.Run{
				ID: fmt.Sprintf("%s-r%d", id, r), Group: id, Repo: "sim/sim", Commit: fmt.Sprintf("%040d", at),
				Branch: branch, Event: model.EventPush, Testbed: "sim",
				StartedAt: t0.Add(time.Duration(at)*time.Hour + time.Duration(r)*time.Minute),
			}}
			for i, b := range benches {
				round := math.Sqrt(1-cfg.JobShare) * cfg.Scale * b.RunSD * rng.NormFloat64()
				level := 1000 * factor(i) * math.Exp(jobEff[i]+round)
				n := b.Samples
				if cfg.MaxSamples > 0 {
					n = min(n, cfg.MaxSamples)
				}
				s := make([]float64, n)
				for k := range s {
					s[k] = level * math.Exp(b.WithinCV*rng.NormFloat64())
				}
				res.Benchmarks = append(res.Benchmarks, model.Benchmark{Suite: "sim", Name: b.Name, Unit: "ns", Better: model.Lower, Samples: s})
			}
			runs = append(runs, res)
		}
		return runs
	}
	none := func(int) float64 { return 1 }
	var hist []*model.Results
	for j := cfg.History - 1; j >= 0; j-- { // newest first, as a store returns them
		hist = append(hist, job(fmt.Sprintf("main-%03d", j), j, none, "main", effects(), cfg.Rounds)...)
	}
	prEff := effects()
	cand := job("pr", cfg.History, slow, "pr", prEff, cfg.Rounds)
	opt := cfg.Options
	opt.BaselineJobs = cfg.Baseline
	c, err := compare.Compare(hist, cand, opt)
	if err != nil {
		return PR{}, err
	}
	failed := c.Failed()
	if failed && cfg.Confirm > 0 {
		// The confirmation rounds run in the same job: same job effect.
		more := job("pr-confirm", cfg.History, slow, "pr", prEff, cfg.Confirm)
		c2, err := compare.Compare(hist, append(cand, more...), opt)
		if err != nil {
			return PR{}, err
		}
		failed = false
		for i := range c.Results {
			if c.Results[i].Verdict == compare.Regression && c2.Results[i].Verdict == compare.Regression {
				failed = true
			}
		}
	}
	truth := map[string]float64{}
	for i, b := range benches {
		truth[b.Name] = slow(i) - 1
	}
	return PR{Failed: failed, Comp: c, Truth: truth}, nil
}

// Rates are the figures of many simulated PRs.
type Rates struct {
	PRs, FailedPRs int
	// Hits and Tries count a slowed benchmark's regressions (power).
	Hits, Tries int
	// Covered and Intervals count reported CIs that contain the true change.
	Covered, Intervals int
	Noisy, Benchmarks  int
}

// FalseFail is the share of PRs that failed.
func (r Rates) FalseFail() float64 { return float64(r.FailedPRs) / float64(r.PRs) }

// Power is the share of slowed benchmarks judged a regression.
func (r Rates) Power() float64 { return float64(r.Hits) / float64(r.Tries) }

// Coverage is the share of intervals containing the true change.
func (r Rates) Coverage() float64 { return float64(r.Covered) / float64(r.Intervals) }

// Simulate runs prs A/A checks with seeds seed, seed+1, …, on all CPUs.
func Simulate(cfg Config, prs int, seed uint64) (Rates, error) {
	return parallel(prs, func(p int) (PR, error) { return Run(cfg, seed+uint64(p)) })
}

// parallel runs n simulations on GOMAXPROCS goroutines and adds them up.
func parallel(n int, one func(i int) (PR, error)) (Rates, error) {
	var (
		mu    sync.Mutex
		total Rates
		first error
		next  atomic.Int64
		wg    sync.WaitGroup
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			var r Rates
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					break
				}
				pr, err := one(i)
				if err != nil {
					mu.Lock()
					first = cmp.Or(first, err)
					mu.Unlock()
					return
				}
				r.add(pr)
			}
			mu.Lock()
			total.merge(r)
			mu.Unlock()
		})
	}
	wg.Wait()
	return total, first
}

func (r *Rates) merge(o Rates) {
	r.PRs += o.PRs
	r.FailedPRs += o.FailedPRs
	r.Hits += o.Hits
	r.Tries += o.Tries
	r.Covered += o.Covered
	r.Intervals += o.Intervals
	r.Noisy += o.Noisy
	r.Benchmarks += o.Benchmarks
}

// add counts one PR: a failure counts as false when nothing was slowed.
func (r *Rates) add(pr PR) {
	r.PRs++
	slowed := false
	for _, res := range pr.Comp.Results {
		truth := pr.Truth[res.Name]
		r.Benchmarks++
		if res.Verdict == compare.Noisy {
			r.Noisy++
		}
		if truth != 0 {
			slowed = true
			r.Tries++
			if res.Verdict == compare.Regression && pr.Failed {
				r.Hits++
			}
		}
		if !math.IsNaN(res.CILow) {
			r.Intervals++
			if res.CILow <= truth && truth <= res.CIHigh {
				r.Covered++
			}
		}
	}
	if pr.Failed && !slowed {
		r.FailedPRs++
	}
}

// SimulateTarget runs trials PR checks in which the first benchmark of
// cfg.Benches, placed at a random position among the PR's benchmarks, is
// slowed by factor; the other benchmarks are drawn from the rest.
func SimulateTarget(cfg Config, trials int, seed uint64, factor float64) (Rates, error) {
	target := cfg.Benches[0]
	c := cfg
	c.Benches = cfg.Benches[1:]
	return parallel(trials, func(t int) (PR, error) {
		pos := rand.New(rand.NewPCG(seed+uint64(t), 0x7a67)).IntN(cfg.PerPR)
		return runWith(c, seed+uint64(t), pos, target, factor)
	})
}

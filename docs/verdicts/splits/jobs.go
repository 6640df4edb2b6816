package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// A job is the rounds of one CI job (job-N/round-R.json), each its own
// process.
type job struct {
	name   string
	rounds []*model.Results
}

// loadJobs reads DIR/job-N/round-R.json, jobs in order of N (oldest first).
func loadJobs(dir string) []job {
	paths, err := filepath.Glob(filepath.Join(dir, "job-*", "round-*.json"))
	if err != nil || len(paths) == 0 {
		fatal(fmt.Errorf("no job-N/round-R.json in %s", dir))
	}
	num := regexp.MustCompile(`job-(\d+)`)
	by := map[int]*job{}
	for _, p := range paths {
		m := num.FindStringSubmatch(filepath.Base(filepath.Dir(p)))
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		r, err := resultsjson.Load(p)
		if err != nil {
			fatal(err)
		}
		r.Run.Group = "job-" + m[1] // the rounds of one job, whatever the files say
		if by[n] == nil {
			by[n] = &job{name: "job-" + m[1]}
		}
		by[n].rounds = append(by[n].rounds, r)
	}
	var ns []int
	for n := range by {
		ns = append(ns, n)
	}
	sort.Ints(ns)
	var out []job
	for _, n := range ns {
		j := by[n]
		slices.SortFunc(j.rounds, func(a, b *model.Results) int { return a.Run.StartedAt.Compare(b.Run.StartedAt) })
		out = append(out, *j)
	}
	return out
}

// smallOrLaunch reports whether a benchmark is launch-bound or works on at
// most 64K elements (the classes of issue 24, as jobspread.py draws them).
func smallOrLaunch(key string) bool {
	for _, t := range []string{"n=4K", "n=64K", "launch_per_op", "per_launch", "mixedops/", "n=256/", "n=1K/"} {
		if strings.Contains(key, t) {
			return true
		}
	}
	return false
}

// jobSpread returns each benchmark's job-to-job spread: the sample SD of
// its job means of the rounds' log medians.
func jobSpread(jobs []job) map[string]float64 {
	means := map[string][]float64{}
	for _, j := range jobs {
		sum, n := map[string]float64{}, map[string]int{}
		for _, r := range j.rounds {
			for _, b := range r.Benchmarks {
				if len(b.Samples) == 0 {
					continue
				}
				k := b.Suite + "/" + b.Name
				s := slices.Sorted(slices.Values(b.Samples))
				sum[k] += math.Log(quantile(s, 0.5))
				n[k]++
			}
		}
		for k := range sum {
			means[k] = append(means[k], sum[k]/float64(n[k]))
		}
	}
	out := map[string]float64{}
	for k, m := range means {
		if len(m) < 2 {
			continue
		}
		var mu, ss float64
		for _, v := range m {
			mu += v
		}
		mu /= float64(len(m))
		for _, v := range m {
			ss += (v - mu) * (v - mu)
		}
		out[k] = math.Sqrt(ss / float64(len(m)-1))
	}
	return out
}

func quantile(sorted []float64, q float64) float64 {
	n := len(sorted)
	h := q * float64(n-1)
	lo := int(math.Floor(h))
	if lo+1 >= n {
		return sorted[n-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}

// slowed returns copies of rounds with every benchmark that target picks
// slowed by factor (its samples multiplied).
func slowed(rounds []*model.Results, factor float64, target func(string) bool) []*model.Results {
	out := make([]*model.Results, len(rounds))
	for i, r := range rounds {
		c := *r
		c.Benchmarks = slices.Clone(r.Benchmarks)
		for bi := range c.Benchmarks {
			b := &c.Benchmarks[bi]
			if !target(b.Suite + "/" + b.Name) {
				continue
			}
			s := make([]float64, len(b.Samples))
			for k, v := range b.Samples {
				s[k] = v * factor
			}
			b.Samples = s
		}
		out[i] = &c
	}
	return out
}

// jobTally adds up the gates of one setting.
type jobTally struct {
	gates, failed, verdicts int
	count                   map[compare.Verdict]int
	caught, tries           int
	falseRegs               map[string]int
	noisy                   map[string]string // benchmark → its spread, as a noisy reason says
}

func newJobTally() *jobTally {
	return &jobTally{count: map[compare.Verdict]int{}, falseRegs: map[string]int{}, noisy: map[string]string{}}
}

// history returns the rounds of jobs idx, newest first, as a store returns
// them.
func history(jobs []job, idx []int) []*model.Results {
	var out []*model.Results
	for i := len(idx) - 1; i >= 0; i-- {
		rs := slices.Clone(jobs[idx[i]].rounds)
		slices.Reverse(rs)
		out = append(out, rs...)
	}
	return out
}

// runJobs prints the figures of issues 24 and 25 for a directory of jobs:
// every split of k jobs recorded as main against one job checked as a PR
// (k = 3: every 3-subset; k = 6: every job against the other six), A/A and
// with +15% injected into the stable benchmarks (job-to-job spread ≤ 1%)
// and into every launch-bound or ≤ 64K-element benchmark.
func runJobs(dir string) {
	jobs := loadJobs(dir)
	nb := len(jobs[0].rounds[0].Benchmarks)
	sp := jobSpread(jobs)
	stable := func(k string) bool { v, ok := sp[k]; return ok && v <= 0.01 }
	var nStable, nSmall int
	for k := range sp {
		if stable(k) {
			nStable++
		}
		if smallOrLaunch(k) {
			nSmall++
		}
	}
	fmt.Printf("%s: %d jobs x %d rounds, %d benchmarks; %d stable (job-to-job spread <= 1%%), %d launch-bound or <= 64K elements\n\n",
		dir, len(jobs), len(jobs[0].rounds), nb, nStable, nSmall)
	fmt.Println("| history | gates | slowdown | injected into | failed gates | caught | noisy | warn | not yet gateable | unchanged |")
	fmt.Println("|--:|--:|--:|:--|--:|--:|--:|--:|--:|--:|")
	type inj struct {
		name   string
		factor float64
		target func(string) bool
	}
	none := func(string) bool { return false }
	settings := []inj{{"nothing (A/A)", 1, none}, {"stable", 1.15, stable}, {"launch-bound or <= 64K", 1.15, smallOrLaunch}}
	var aa6 *jobTally
	for _, k := range []int{3, 6} {
		for _, s := range settings {
			t := newJobTally()
			for _, sub := range subsets(len(jobs), k) {
				for c := range jobs {
					if slices.Contains(sub, c) {
						continue
					}
					cand := slowed(jobs[c].rounds, s.factor, s.target)
					cmp, err := compare.Compare(history(jobs, sub), cand, compare.DefaultOptions())
					if err != nil {
						fatal(err)
					}
					t.add(cmp, s.target, s.factor > 1)
				}
			}
			caught := "—"
			if s.factor > 1 {
				caught = fmt.Sprintf("%d of %d (%.1f%%)", t.caught, t.tries, 100*float64(t.caught)/float64(t.tries))
			}
			share := func(v compare.Verdict) string {
				return fmt.Sprintf("%.1f%%", 100*float64(t.count[v])/float64(t.verdicts))
			}
			fmt.Printf("| %d jobs | %d | %+.0f%% | %s | %d | %s | %s | %s | %s | %s |\n", k, t.gates, 100*(s.factor-1), s.name, t.failed, caught,
				share(compare.Noisy), share(compare.Warn), share(compare.NotYet), share(compare.Unchanged))
			if k == 6 && s.factor == 1 {
				aa6 = t
			}
			if s.factor == 1 && len(t.falseRegs) > 0 {
				fmt.Fprintf(os.Stderr, "false regressions with %d jobs: %v\n", k, t.falseRegs)
			}
		}
	}
	if aa6 != nil && len(aa6.noisy) > 0 {
		fmt.Printf("\nnoisy in the 6-job A/A gates (benchmark: its reason in one gate):\n")
		for _, k := range slices.Sorted(func(yield func(string) bool) {
			for k := range aa6.noisy {
				if !yield(k) {
					return
				}
			}
		}) {
			fmt.Printf("  %s: %s\n", k, aa6.noisy[k])
		}
	}
}

func (t *jobTally) add(c *compare.Comparison, target func(string) bool, injected bool) {
	t.gates++
	if c.Failed() && !injected {
		t.failed++
	}
	for _, r := range c.Results {
		k := r.Suite + "/" + r.Name
		t.verdicts++
		t.count[r.Verdict]++
		if injected && target(k) {
			t.tries++
			if r.Verdict == compare.Regression {
				t.caught++
			}
		}
		if r.Verdict == compare.Regression && !(injected && target(k)) {
			t.falseRegs[k]++
			if injected {
				t.failed++ // a gate failed on a benchmark that was not slowed
			}
		}
		if r.Verdict == compare.Noisy || r.Verdict == compare.NotYet || r.Verdict == compare.Warn {
			t.noisy[k] = string(r.Verdict) + ": " + r.Reason
		}
	}
	if os.Getenv("SPLITS_DEBUG") != "" {
		for _, r := range c.Results {
			k := r.Suite + "/" + r.Name
			if (injected && target(k) && r.Verdict != compare.Regression) || r.Verdict == compare.Warn || r.Verdict == compare.Noisy {
				fmt.Fprintf(os.Stderr, "%s %s %+.3f CI [%.3f, %.3f] p %.2g padj %.2g spread %.4f det %.3f jobs %d: %s\n",
					r.Verdict, k, r.Change, r.CILow, r.CIHigh, r.PValue, r.PAdjusted, r.RunSpread, r.Detectable, r.HistoryJobs, r.Reason)
			}
		}
	}
}

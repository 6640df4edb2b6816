// Command splits replays the separate-process GPU runs of docs/verdicts.md
// through perfgate's verdicts: every split of K recorded main runs against
// one candidate run, for the A/A runs of the built-in suites and for the
// injected-slowdown kernel variants.
//
//	go run ./docs/verdicts/splits DIR
//	go run ./docs/verdicts/splits -spreads DIR > docs/verdicts/spreads.csv
//	go run ./docs/verdicts/splits -jobs DIR
//
// With -jobs, DIR holds job-N/round-R.json (the rounds of N jobs of the
// default PR run, each round its own process) and the command prints every
// 3-vs-1 split and 6-vs-1 gate, A/A and with +15% injected (jobs.go).
//
// DIR holds the runs device-aa.sh and device-check.sh wrote: aa*.json
// (built-in suites, the same code in every process) and injP-NN.json (the
// inject suite at +P%). It prints, per K, how many gates failed and which
// benchmarks caused it, with today's verdicts ("runs": the K runs are the
// whole history; "runs, history": every other run is history and the
// newest K of it the baseline) and with the samples of the K runs pooled
// into one as before issue 9 ("pooled"). -spreads prints each benchmark's
// run-to-run spread instead, the input of docs/verdicts/sim.
package main

import (
	"flag"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
	"github.com/perfgate/perfgate/tracker/stats"
)

func main() {
	spreads := flag.Bool("spreads", false, "print each benchmark's run-to-run spread as CSV")
	jobsDir := flag.Bool("jobs", false, "DIR holds job-N/round-R.json: print the job splits")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: go run ./docs/verdicts/splits [-spreads | -jobs] DIR")
		os.Exit(2)
	}
	dir := flag.Arg(0)
	if *jobsDir {
		runJobs(dir)
		return
	}
	aa := load(dir, "aa*.json")
	if *spreads {
		printSpreads(aa)
		return
	}
	fmt.Printf("A/A: %d separate-process runs of the built-in suites (%d benchmarks each)\n\n", len(aa), len(aa[0].Benchmarks))
	fmt.Println("| K | splits | method | failed gates | false regressions | noisy (mean per split) | warn (mean) |")
	fmt.Println("|--:|--:|:--|--:|--:|--:|--:|")
	offenders, pooledOffenders := map[string]int{}, map[string]int{}
	for _, k := range []int{3, 5} {
		for _, m := range []string{"runs", "runs + confirmation", "runs, 3 rounds", "runs, history", "pooled"} {
			var s tally
			switch m {
			case "runs, history":
				s = leaveOneOut(aa, k, offenders)
			case "runs + confirmation":
				s = replayConfirm(aa, k, 3, offenders)
			case "runs, 3 rounds":
				s = replayRounds(aa, k, 3, offenders)
			case "pooled":
				s = replay(aa, aa, k, true, pooledOffenders)
			default:
				s = replay(aa, aa, k, false, offenders)
			}
			fmt.Printf("| %d | %d | %s | %d | %d | %.1f | %.1f |\n", k, s.splits, m, s.failed, s.regressions,
				float64(s.noisy)/float64(s.splits), float64(s.warn)/float64(s.splits))
		}
	}
	for _, o := range []struct {
		what string
		m    map[string]int
	}{{"judged across runs (every method above but pooled)", offenders}, {"pooled", pooledOffenders}} {
		fmt.Printf("\nfalse regressions by benchmark, %s: %d benchmarks\n", o.what, len(o.m))
		for _, k := range sortedKeys(o.m) {
			fmt.Printf("  %4d  %s\n", o.m[k], k)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "inj0-*.json")); len(m) == 0 {
		return
	}
	base := load(dir, "inj0-*.json")
	fmt.Printf("\nInjected slowdowns: %d runs of inject +0%% as main history, each run of a variant a candidate\n\n", len(base))
	fmt.Println("| variant | K | trials | failed gates | benchmarks caught (mean of 4) |")
	fmt.Println("|:--|--:|--:|--:|--:|")
	for _, p := range []string{"5", "15", "25"} {
		cands := load(dir, "inj"+p+"-*.json")
		for _, k := range []int{3, 5} {
			s := replay(base, cands, k, false, nil)
			fmt.Printf("| +%s%% | %d | %d | %d | %.2f |\n", p, k, s.splits, s.failed, float64(s.regressions)/float64(s.splits))
		}
	}
}

type tally struct{ splits, failed, regressions, noisy, warn int }

func (t *tally) add(c *compare.Comparison, offenders map[string]int) {
	t.splits++
	if c.Failed() {
		t.failed++
	}
	t.regressions += c.Summary.Regressions
	t.noisy += c.Summary.Noisy
	t.warn += c.Summary.Warnings
	for _, r := range c.Results {
		if r.Verdict == compare.Regression && offenders != nil {
			offenders[r.Suite+"/"+r.Name]++
		}
		if r.Verdict == compare.Regression && os.Getenv("SPLITS_DEBUG") != "" {
			fmt.Fprintf(os.Stderr, "%s vs %d runs: %s/%s %+.3f CI [%.3f, %.3f] p %.2g padj %.2g prun %.2g spread %.3f det %.3f jobs %d\n",
				c.Candidate.ID, len(c.Baseline), r.Suite, r.Name, r.Change, r.CILow, r.CIHigh, r.PValue, r.PAdjusted, r.PRun, r.RunSpread, r.Detectable, r.HistoryJobs)
		}
	}
}

// replayConfirm is replay with confirmation, as check --confirm and the
// action do: when a candidate run fails the gate, the next confirm runs
// outside the baseline (in run order, cyclically) stand in for the fresh
// processes of the re-run, and the gate fails only on a benchmark that is a
// regression both in the first check and on the combined runs.
func replayConfirm(runs []*model.Results, k, confirm int, offenders map[string]int) tally {
	var t tally
	opt := compare.DefaultOptions()
	for _, subset := range subsets(len(runs), k) {
		base := pick(runs, subset)
		for ci, c := range runs {
			if slices.Contains(subset, ci) {
				continue
			}
			first, err := compare.Compare(base, []*model.Results{c}, opt)
			if err != nil {
				fatal(err)
			}
			if !first.Failed() {
				t.add(first, offenders)
				continue
			}
			cands := []*model.Results{c}
			for j := 1; j < len(runs) && len(cands) <= confirm; j++ {
				o := (ci + j) % len(runs)
				if !slices.Contains(subset, o) {
					cands = append(cands, runs[o])
				}
			}
			both, err := compare.Compare(base, cands, opt)
			if err != nil {
				fatal(err)
			}
			held := *both
			held.Results = nil
			held.Summary = compare.Summary{}
			for i, r := range both.Results {
				if r.Verdict == compare.Regression && first.Results[i].Verdict != compare.Regression {
					r.Verdict = compare.Unchanged // only the first check's regressions are re-judged
				}
				held.Results = append(held.Results, r)
			}
			held.Summary = compare.Summarize(held.Results)
			t.add(&held, offenders)
		}
	}
	return t
}

// replayRounds judges candidates of rounds runs (one job of that many
// processes, the action's default) against every k-subset of the others.
func replayRounds(runs []*model.Results, k, rounds int, offenders map[string]int) tally {
	var t tally
	opt := compare.DefaultOptions()
	for _, subset := range subsets(len(runs), k) {
		base := pick(runs, subset)
		var rest []int
		for i := range runs {
			if !slices.Contains(subset, i) {
				rest = append(rest, i)
			}
		}
		for _, cs := range subsets(len(rest), rounds) {
			var cands []*model.Results
			for _, j := range cs {
				cands = append(cands, runs[rest[j]])
			}
			c, err := compare.Compare(base, cands, opt)
			if err != nil {
				fatal(err)
			}
			t.add(c, offenders)
		}
	}
	return t
}

// pick returns the runs at the indices, newest first, as a store returns
// them.
func pick(runs []*model.Results, idx []int) []*model.Results {
	out := make([]*model.Results, 0, len(idx))
	for _, i := range idx {
		out = append(out, runs[i])
	}
	slices.SortFunc(out, func(a, b *model.Results) int { return b.Run.StartedAt.Compare(a.Run.StartedAt) })
	return out
}

// leaveOneOut judges each run against all the others as history, the
// newest k of them the baseline: the default check with as much history as
// the experiment has.
func leaveOneOut(runs []*model.Results, k int, offenders map[string]int) tally {
	var t tally
	opt := compare.DefaultOptions()
	opt.BaselineJobs = k
	for _, c := range runs {
		var hist []*model.Results
		for _, r := range runs {
			if r != c {
				hist = append(hist, r)
			}
		}
		slices.SortFunc(hist, func(a, b *model.Results) int { return b.Run.StartedAt.Compare(a.Run.StartedAt) })
		cmp, err := compare.Compare(hist, []*model.Results{c}, opt)
		if err != nil {
			fatal(err)
		}
		t.add(cmp, offenders)
	}
	return t
}

// printSpreads writes each benchmark's run-to-run spread (the sample SD of
// the runs' log medians), median within-run CV and median samples per run.
func printSpreads(runs []*model.Results) {
	type acc struct {
		logs, cvs []float64
		ns        []int
	}
	by := map[string]*acc{}
	for _, r := range runs {
		for _, b := range r.Benchmarks {
			if len(b.Samples) == 0 {
				continue
			}
			k := b.Suite + "/" + b.Name
			if by[k] == nil {
				by[k] = &acc{}
			}
			s := slices.Sorted(slices.Values(b.Samples))
			by[k].logs = append(by[k].logs, math.Log(stats.Quantile(s, 0.5)))
			by[k].cvs = append(by[k].cvs, stats.Describe(s).CV)
			by[k].ns = append(by[k].ns, len(s))
		}
	}
	fmt.Printf("# Run-to-run spread of each benchmark over %d separate-process runs (%s … %s),\n", len(runs), runs[0].Run.ID, runs[len(runs)-1].Run.ID)
	fmt.Printf("# %s, written by: go run ./docs/verdicts/splits -spreads DIR\n", runs[0].Run.Env[model.EnvGPU])
	fmt.Println("# run_sd: sample SD of the runs' log medians; within_cv: median within-run CV; n: median samples per run")
	fmt.Println("benchmark,run_sd,within_cv,n")
	for _, k := range slices.Sorted(maps.Keys(by)) {
		a := by[k]
		if len(a.logs) < 2 {
			continue
		}
		m := stats.Describe(a.logs).Std
		slices.Sort(a.cvs)
		slices.Sort(a.ns)
		fmt.Printf("%s,%.6f,%.6f,%d\n", k, m, stats.Quantile(a.cvs, 0.5), a.ns[len(a.ns)/2])
	}
}

// replay judges every candidate run against every K-subset of the history
// runs that does not contain it. pooled merges the K runs into one run,
// which with no assumed spread reproduces the pooled Mann-Whitney verdicts
// of before issue 9.
func replay(history, cands []*model.Results, k int, pooled bool, offenders map[string]int) tally {
	var t tally
	opt := compare.DefaultOptions()
	if pooled {
		opt.RunSpreadPrior = 0
	}
	for _, subset := range subsets(len(history), k) {
		base := make([]*model.Results, 0, k)
		for _, i := range subset {
			base = append(base, history[i])
		}
		// Newest first, as a store returns them.
		slices.SortFunc(base, func(a, b *model.Results) int { return b.Run.StartedAt.Compare(a.Run.StartedAt) })
		if pooled {
			base = []*model.Results{merge(base)}
		}
		for _, c := range cands {
			if slices.Contains(base, c) || slices.ContainsFunc(subset, func(i int) bool { return history[i] == c }) {
				continue
			}
			cmp, err := compare.Compare(base, []*model.Results{c}, opt)
			if err != nil {
				fatal(err)
			}
			t.add(cmp, offenders)
		}
	}
	return t
}

// merge pools the samples of several runs into one run.
func merge(rs []*model.Results) *model.Results {
	out := *rs[0]
	out.Benchmarks = nil
	idx := map[model.Key]int{}
	for _, r := range rs {
		for _, b := range r.Benchmarks {
			i, ok := idx[b.Key()]
			if !ok {
				idx[b.Key()] = len(out.Benchmarks)
				b.Samples = slices.Clone(b.Samples)
				out.Benchmarks = append(out.Benchmarks, b)
				continue
			}
			out.Benchmarks[i].Samples = append(out.Benchmarks[i].Samples, b.Samples...)
		}
	}
	return &out
}

// subsets returns every k-subset of [0, n).
func subsets(n, k int) [][]int {
	var out [][]int
	var rec func(start int, cur []int)
	rec = func(start int, cur []int) {
		if len(cur) == k {
			out = append(out, slices.Clone(cur))
			return
		}
		for i := start; i < n; i++ {
			rec(i+1, append(cur, i))
		}
	}
	rec(0, nil)
	return out
}

func load(dir, pattern string) []*model.Results {
	paths, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil || len(paths) == 0 {
		fatal(fmt.Errorf("no %s in %s", pattern, dir))
	}
	sort.Strings(paths)
	var out []*model.Results
	for _, p := range paths {
		r, err := resultsjson.Load(p)
		if err != nil {
			fatal(err)
		}
		out = append(out, r)
	}
	return out
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return strings.Compare(keys[i], keys[j]) < 0
	})
	return keys
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "splits:", err)
	os.Exit(1)
}

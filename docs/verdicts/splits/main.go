// Command splits replays the separate-process GPU runs of docs/verdicts.md
// through perfgate's verdicts: every split of K recorded main runs against
// one candidate run, for the A/A runs of the built-in suites and for the
// injected-slowdown kernel variants.
//
//	go run ./docs/verdicts/splits DIR
//
// DIR holds the runs device-aa.sh wrote: aa-NN.json (built-in suites, the
// same code in every process) and injP-NN.json (the inject suite at +P%).
// It prints, per K, how many gates failed and which benchmarks caused it,
// with today's verdicts ("runs") and with the samples of the K runs pooled
// into one as before issue 9 ("pooled").
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./docs/verdicts/splits DIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	aa := load(dir, "aa-*.json")
	fmt.Printf("A/A: %d separate-process runs of the built-in suites (%d benchmarks each)\n\n", len(aa), len(aa[0].Benchmarks))
	fmt.Println("| K | splits | method | failed gates | false regressions | noisy (mean per split) | warn (mean) |")
	fmt.Println("|--:|--:|:--|--:|--:|--:|--:|")
	offenders := map[string]int{}
	for _, k := range []int{3, 5} {
		for _, m := range []string{"runs", "pooled"} {
			s := replay(aa, aa, k, m == "pooled", offenders)
			fmt.Printf("| %d | %d | %s | %d | %d | %.1f | %.1f |\n", k, s.splits, m, s.failed, s.regressions,
				float64(s.noisy)/float64(s.splits), float64(s.warn)/float64(s.splits))
		}
	}
	if len(offenders) > 0 {
		fmt.Println("\nfalse regressions by benchmark (all K and methods):")
		for _, k := range sortedKeys(offenders) {
			fmt.Printf("  %4d  %s\n", offenders[k], k)
		}
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
			t.splits++
			if cmp.Failed() {
				t.failed++
			}
			t.regressions += cmp.Summary.Regressions
			t.noisy += cmp.Summary.Noisy
			t.warn += cmp.Summary.Warnings
			for _, r := range cmp.Results {
				if r.Verdict == compare.Regression && offenders != nil {
					offenders[r.Suite+"/"+r.Name]++
				}
			}
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
		r, err := model.Load(p)
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

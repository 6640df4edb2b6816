// Command sim prints the simulation figures of docs/verdicts.md: A/A
// false-fail rates per PR, power against a 15% slowdown and the coverage of
// the reported interval, with the run-to-run spreads measured on an H100
// (docs/verdicts/spreads.csv). Seeded: the same command prints the same
// table.
//
//	go run ./docs/verdicts/sim [-prs 2000] [-spreads docs/verdicts/spreads.csv]
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/compare/sim"
)

func main() {
	prs := flag.Int("prs", 2000, "simulated PRs per A/A setting")
	trials := flag.Int("trials", 400, "simulated PRs per power setting")
	path := flag.String("spreads", "docs/verdicts/spreads.csv", "measured spreads")
	flag.Parse()
	benches, err := load(*path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "sim:", err)
		os.Exit(2)
	}
	base := sim.Config{Benches: benches, PerPR: 36, History: 20, Baseline: 3, Rounds: 3, Scale: 1,
		MaxSamples: 30, Options: compare.DefaultOptions()}
	fmt.Printf("%d measured benchmarks; 36 drawn per PR; history 20 jobs, baseline the newest 3; samples capped at 30 a run\n\n", len(benches))
	type setting struct {
		rounds, confirm int
	}
	settings := []setting{{1, 0}, {3, 0}, {3, 3}}
	aaSettings := settings[1:] // one round a job: see the power table
	fmt.Println("| spread | variance per job | rounds | confirmation rounds | PRs | A/A failed PRs | rate | noisy share | 99% CI coverage |")
	fmt.Println("|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, sc := range []float64{1, 2} {
		for _, share := range []float64{0, 0.5} {
			for _, st := range aaSettings {
				cfg := base
				cfg.Scale, cfg.JobShare, cfg.Rounds, cfg.Confirm = sc, share, st.rounds, st.confirm
				r, err := sim.Simulate(cfg, *prs, 1_000_000*uint64(sc)+10_000*uint64(10*share)+uint64(100*st.rounds+st.confirm))
				check(err)
				fmt.Printf("| ×%g | %.0f%% | %d | %d | %d | %d | %.2f%% | %.1f%% | %.2f%% |\n", sc, 100*share, st.rounds, st.confirm, r.PRs, r.FailedPRs,
					100*r.FalseFail(), 100*float64(r.Noisy)/float64(r.Benchmarks), 100*r.Coverage())
			}
		}
	}
	fmt.Println("\nPower: one benchmark of the 36 slowed (run spread and within-run CV as shown), the others drawn from the measured spreads")
	fmt.Println("\n| slowdown | run spread | within CV | variance per job | rounds | confirmation rounds | trials | caught | power | 99% CI coverage |")
	fmt.Println("|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, slow := range []float64{1.15, 1.25} {
		for _, sd := range []float64{0.01, 0.03} {
			for _, share := range []float64{0, 0.5} {
				for _, st := range settings {
					cfg := base
					cfg.JobShare, cfg.Rounds, cfg.Confirm = share, st.rounds, st.confirm
					target := sim.Bench{Name: "slowed", RunSD: sd, WithinCV: 0.01, Samples: 50}
					cfg.Benches = append([]sim.Bench{target}, benches...)
					r, err := sim.SimulateTarget(cfg, *trials, 7_000_000+uint64(1000*slow)+10_000*uint64(1000*sd)+uint64(100*share)+uint64(10*st.rounds+st.confirm), slow)
					check(err)
					fmt.Printf("| +%.0f%% | %.0f%% | 1%% | %.0f%% | %d | %d | %d | %d | %.1f%% | %.2f%% |\n", 100*(slow-1), 100*sd, 100*share, st.rounds, st.confirm,
						r.Tries, r.Hits, 100*r.Power(), 100*r.Coverage())
				}
			}
		}
	}
}

// load reads spreads.csv: benchmark,run_sd,within_cv,n after '#' comments
// and a header line.
func load(path string) ([]sim.Bench, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []sim.Bench
	sc := bufio.NewScanner(f)
	for line := 0; sc.Scan(); line++ {
		t := sc.Text()
		if strings.HasPrefix(t, "#") || strings.HasPrefix(t, "benchmark,") || t == "" {
			continue
		}
		p := strings.Split(t, ",")
		if len(p) != 4 {
			return nil, fmt.Errorf("%s:%d: want 4 fields", path, line+1)
		}
		sd, err1 := strconv.ParseFloat(p[1], 64)
		cv, err2 := strconv.ParseFloat(p[2], 64)
		n, err3 := strconv.Atoi(p[3])
		if err1 != nil || err2 != nil || err3 != nil {
			return nil, fmt.Errorf("%s:%d: bad number", path, line+1)
		}
		out = append(out, sim.Bench{Name: p[0], RunSD: sd, WithinCV: cv, Samples: n})
	}
	return out, sc.Err()
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "sim:", err)
		os.Exit(1)
	}
}

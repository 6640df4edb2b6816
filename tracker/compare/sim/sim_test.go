package sim

import (
	"testing"

	"github.com/perfgate/perfgate/tracker/compare"
)

// spreads are a few run-to-run spreads measured on an H100
// (docs/verdicts/spreads.csv): a DRAM-bound kernel, an L2-resident 4K
// kernel in batch and in cold mode, and a launch-bound sequence.
var spreads = []Bench{
	{Name: "add-16M-batch", RunSD: 0.0023, WithinCV: 0.0026, Samples: 49},
	{Name: "add-4K-batch", RunSD: 0.045, WithinCV: 0.0015, Samples: 50},
	{Name: "add-4K-cold", RunSD: 0.04, WithinCV: 0.033, Samples: 500},
	{Name: "launch-per-op", RunSD: 0.14, WithinCV: 0.1, Samples: 30},
	{Name: "gelu-1M-cold", RunSD: 0.008, WithinCV: 0.01, Samples: 500},
}

func config() Config {
	return Config{Benches: spreads, PerPR: 36, History: 20, Baseline: 3, Rounds: 3, Scale: 1,
		MaxSamples: 20, Confirm: 3, Options: compare.DefaultOptions()}
}

// TestAAChecksPass: checks of unchanged code with the action's defaults
// (3 rounds, confirmation) fail no PR of 60; docs/verdicts.md runs 3000.
func TestAAChecksPass(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	r, err := Simulate(config(), 60, 1)
	if err != nil {
		t.Fatal(err)
	}
	if r.FailedPRs != 0 || r.PRs != 60 {
		t.Errorf("%d of %d A/A PRs failed", r.FailedPRs, r.PRs)
	}
	if c := r.Coverage(); c < 0.98 {
		t.Errorf("99%% CI coverage %.3f, want ≥ 0.98", c)
	}
}

// TestSlowdownCaught: a 25% slowdown of a benchmark whose runs move ±1% is
// caught in every one of 20 PRs, and a 0% "slowdown" in none.
func TestSlowdownCaught(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	cfg := config()
	cfg.Benches = append([]Bench{{Name: "target", RunSD: 0.01, WithinCV: 0.01, Samples: 50}}, spreads...)
	r, err := SimulateTarget(cfg, 20, 2, 1.25)
	if err != nil {
		t.Fatal(err)
	}
	if r.Tries != 20 || r.Hits != 20 {
		t.Errorf("caught %d of %d", r.Hits, r.Tries)
	}
	r, err = SimulateTarget(cfg, 20, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	if r.Hits != 0 || r.Tries != 0 {
		t.Errorf("an unchanged target: %d hits in %d tries", r.Hits, r.Tries)
	}
}

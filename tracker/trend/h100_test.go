package trend

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// h100 is the committed H100 history (examples/history): for each
// benchmark, the samples of each of the five main runs, in run order.
type h100 struct {
	keys    []model.Key
	better  map[model.Key]model.Better
	samples map[model.Key][][]float64
	// pool holds, per benchmark and committed run, poolSize medians of
	// bootstrap resamples of that run's samples (drawn once: resampling
	// thousands of samples for every simulated run is most of the time).
	pool map[model.Key][][]float64
	runs []model.RunRef
}

const poolSize = 256

func loadH100(t *testing.T) h100 {
	t.Helper()
	files, err := filepath.Glob("../../examples/history/main-*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no committed history: %v", err)
	}
	slices.Sort(files)
	h := h100{better: map[model.Key]model.Better{}, samples: map[model.Key][][]float64{}}
	for _, f := range files {
		r, err := resultsjson.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		h.runs = append(h.runs, r.Run.Ref())
		for _, b := range r.Benchmarks {
			k := b.Key()
			if _, ok := h.better[k]; !ok {
				h.keys = append(h.keys, k)
			}
			h.better[k] = b.Better
			h.samples[k] = append(h.samples[k], b.Samples)
		}
	}
	rng := rand.New(rand.NewPCG(13, 13))
	h.pool = map[model.Key][][]float64{}
	for _, k := range h.keys {
		for _, s := range h.samples[k] {
			meds := make([]float64, poolSize)
			re := make([]float64, len(s))
			for i := range meds {
				for j := range re {
					re[j] = s[rng.IntN(len(s))]
				}
				meds[i] = median(re)
			}
			h.pool[k] = append(h.pool[k], meds)
		}
	}
	return h
}

// simulate draws an n-run history of benchmark k with the noise measured
// on the H100: each run's median is the median of a bootstrap resample of
// the samples of one of the committed runs, picked at random (from the
// pool). That keeps both the noise within a run and the spread between
// runs.
func (h h100) simulate(rng *rand.Rand, k model.Key, n int) []float64 {
	runs := h.pool[k]
	out := make([]float64, n)
	for i := range out {
		meds := runs[rng.IntN(len(runs))]
		out[i] = meds[rng.IntN(len(meds))]
	}
	return out
}

// seriesOf makes a trend series of medians with one made-up commit a run.
func seriesOf(k model.Key, better model.Better, medians []float64) model.TrendSeries {
	se := model.TrendSeries{Suite: k.Suite, Name: k.Name, Unit: "us", Better: better}
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for i, m := range medians {
		se.Points = append(se.Points, model.TrendPoint{Median: m, N: 1, Run: model.RunRef{
			ID: fmt.Sprintf("run-%03d", i), Commit: fmt.Sprintf("c%039d", i), Branch: "main", StartedAt: at.Add(time.Duration(i) * time.Hour)}})
	}
	return se
}

// median of x (the mean of the two middle values for an even count).
func median(x []float64) float64 {
	s := slices.Sorted(slices.Values(x))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// spread is the range of the committed run medians of k, max/min − 1: how
// far apart two runs of the same code land on the H100.
func (h h100) spread(k model.Key) float64 {
	var meds []float64
	for _, s := range h.samples[k] {
		meds = append(meds, median(s))
	}
	return slices.Max(meds)/slices.Min(meds) - 1
}

// TestH100AA is the A/A test: 100 seeded 30-run histories of the 36 H100
// benchmarks, drawn with the measured noise and no change. A history is
// clean when no step is found in any of its 36 series; at least 95 of 100
// must be (issue 13). Measured: 96 of 100, 4 of 3600 series with a false
// step, all in the 1M-element batch benchmarks whose runs sit in levels
// 5–8% apart.
func TestH100AA(t *testing.T) {
	h := loadH100(t)
	clean, falseSeries := 0, 0
	for seed := range 100 {
		rng := rand.New(rand.NewPCG(uint64(seed), 1))
		found := 0
		for _, k := range h.keys {
			if s := Steps(seriesOf(k, h.better[k], h.simulate(rng, k, 30)), DefaultOptions()); len(s) > 0 {
				found++
				t.Logf("seed %d: false step in %s: %+v", seed, k, s[0])
			}
		}
		falseSeries += found
		if found == 0 {
			clean++
		}
	}
	t.Logf("A/A: %d/100 histories clean; %d/%d series with a false step", clean, falseSeries, 100*len(h.keys))
	if clean < 95 {
		t.Errorf("A/A: %d/100 histories clean, want ≥ 95", clean)
	}
}

// TestH100Committed runs detection on the committed five-run history: as
// committed it has no step; with a ±10% step injected at runs 1 to 4 (the
// first runs) the step is found at its commit whenever the five runs
// alone span under a tenth of it. Five runs give the t-test three degrees
// of freedom (p < 0.001 needs |t| > 12.9), so noisier benchmarks need the
// longer histories of TestH100Injected; their rate here is logged.
func TestH100Committed(t *testing.T) {
	h := loadH100(t)
	var quiet, quietFound, other, otherFound int
	for _, k := range h.keys {
		meds := make([]float64, len(h.runs))
		for i, s := range h.samples[k] {
			meds[i] = median(s)
		}
		se := seriesOf(k, h.better[k], meds)
		for i := range se.Points {
			se.Points[i].Run = h.runs[i]
		}
		if s := Steps(se, DefaultOptions()); len(s) != 0 {
			t.Errorf("%s as committed: %+v, want no step", k, s)
		}
		for pos := 1; pos < len(meds); pos++ {
			for _, by := range []float64{1.1, 0.9} {
				in := slices.Clone(se.Points)
				for i := pos; i < len(in); i++ {
					in[i].Median *= by
				}
				got := Steps(model.TrendSeries{Suite: se.Suite, Name: se.Name, Unit: se.Unit, Better: se.Better, Points: in}, DefaultOptions())
				ok := len(got) == 1 && got[0].Run.Commit == h.runs[pos].Commit
				if h.spread(k) < 0.01 {
					quiet++
					if ok {
						quietFound++
					} else {
						t.Errorf("%s: ×%v from run %d (commit %.8s): found %+v", k, by, pos, h.runs[pos].Commit, got)
					}
				} else if other++; ok {
					otherFound++
				}
			}
		}
	}
	t.Logf("five committed runs, ±10%% at runs 1-4: quiet benchmarks %d/%d found at their commit, others %d/%d", quietFound, quiet, otherFound, other)
}

// TestH100Injected injects steps of ±10% and ±20% into seeded 30-run
// histories drawn with the measured noise, at the first three runs, the
// middle and the last three, and wants each found at its commit, and
// no other step beside it, whenever the step is at least twice the spread
// between the committed runs of that benchmark (30 of 36 benchmarks for
// 10%, all of them for 20%). The runs of a noisy benchmark fall in a few
// levels (one per committed run), so a step next to a run of another
// level is sometimes placed one run off or joined by a second step: at
// most 0.5% may miss, and every miss is logged. The rate of the smaller
// steps is logged.
func TestH100Injected(t *testing.T) {
	h := loadH100(t)
	const n = 30
	var must, mustFound, extra, other, otherFound int
	for seed := range 5 {
		rng := rand.New(rand.NewPCG(uint64(seed), 2))
		for _, k := range h.keys {
			for _, pos := range []int{1, 2, 3, 15, n - 3, n - 2, n - 1} {
				for _, by := range []float64{1.1, 0.9, 1.2, 0.8} {
					x := h.simulate(rng, k, n)
					for i := pos; i < n; i++ {
						x[i] *= by
					}
					got := Steps(seriesOf(k, h.better[k], x), DefaultOptions())
					at := slices.IndexFunc(got, func(s Step) bool { return s.Run.Commit == fmt.Sprintf("c%039d", pos) })
					ok := at >= 0
					size := by - 1
					if size < 0 {
						size = 1/by - 1 // ×0.9 is a 10% step seen from the lower level
					}
					if size >= 2*h.spread(k) {
						must++
						if ok {
							mustFound++
						}
						if !ok || len(got) > 1 {
							t.Logf("seed %d %s: ×%v from run %d: found %+v", seed, k, by, pos, got)
						}
						if ok && len(got) > 1 {
							extra++
						}
					} else {
						other++
						if ok {
							otherFound++
						}
					}
				}
			}
		}
	}
	t.Logf("steps ≥ 2× the run spread: %d/%d found at their commit (%d with a second, false step); smaller steps: %d/%d",
		mustFound, must, extra, otherFound, other)
	if miss := must - mustFound; float64(miss+extra) > 0.005*float64(must) {
		t.Errorf("%d missed and %d with a false step of %d, want at most 0.5%%", miss, extra, must)
	}
}

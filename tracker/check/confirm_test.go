package check

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
)

// fakeRerunner answers a re-run with fixed rounds or an error.
type fakeRerunner struct {
	rounds  []*model.Results
	err     error
	targets []model.Key
}

func (f *fakeRerunner) Rerun(_ context.Context, targets []model.Key, _ model.Run) ([]*model.Results, map[model.Key]string, error) {
	f.targets = targets
	return f.rounds, nil, f.err
}

// runOf is a run of one benchmark whose samples are around level.
func runOf(id string, hour int, level float64) *model.Results {
	s := make([]float64, 10)
	for i := range s {
		s[i] = level * (1 + 0.001*float64(i))
	}
	return &model.Results{Schema: model.Schema,
		Run: model.Run{ID: id, Repo: "o/r", Commit: fmt.Sprintf("%040d", hour), Branch: "main", Event: model.EventPush, Testbed: "tb",
			StartedAt: time.Date(2025, 1, 1, hour, 0, 0, 0, time.UTC)},
		Benchmarks: []model.Benchmark{{Suite: "s", Name: "b", Unit: "ns", Better: model.Lower, Samples: s}}}
}

func TestConfirm(t *testing.T) {
	b := &model.Baseline{}
	for i := range 3 {
		r := runOf(fmt.Sprintf("m%d", i), i, 100)
		b.Runs, b.Used = append(b.Runs, r), append(b.Used, r.Run.Ref())
	}
	cands := []*model.Results{runOf("pr", 5, 130)}
	first, err := Judge(b, cands, 3, compare.DefaultOptions())
	if err != nil || !first.Failed() {
		t.Fatalf("first comparison: failed %v, %v; want a regression", first != nil && first.Failed(), err)
	}
	tests := []struct {
		name       string
		rr         *fakeRerunner
		wantFailed bool
		wantRounds int
		confFailed bool
	}{
		// The re-run is as slow: the regression holds.
		{"holds", &fakeRerunner{rounds: []*model.Results{runOf("pr-c1", 6, 130), runOf("pr-c2", 7, 130), runOf("pr-c3", 8, 130)}}, true, 3, false},
		// The re-run is back to the baseline: it does not hold.
		{"does not hold", &fakeRerunner{rounds: []*model.Results{runOf("pr-c1", 6, 100), runOf("pr-c2", 7, 100), runOf("pr-c3", 8, 100)}}, false, 3, false},
		// A re-run that fails leaves the regression standing, and says why.
		{"re-run failed", &fakeRerunner{err: errors.New("GPU lost")}, true, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			final, conf, rs := Confirm(context.Background(), tt.rr, 3, b, cands, first)
			if final.Failed() != tt.wantFailed || len(rs) != tt.wantRounds || (conf.Failed != "") != tt.confFailed {
				t.Errorf("failed %v, %d rounds to record, confirmation failed %q; want %v, %d, %v",
					final.Failed(), len(rs), conf.Failed, tt.wantFailed, tt.wantRounds, tt.confFailed)
			}
			if len(tt.rr.targets) != 1 || tt.rr.targets[0] != (model.Key{Suite: "s", Name: "b"}) {
				t.Errorf("re-run targets %v, want the regression s/b", tt.rr.targets)
			}
		})
	}
}

// TestConfirmHoldsReproducedRegression is the act GPU leg on the lent H100
// (issue 25): two pushes of main of 3 rounds each, a PR whose saxpy is
// +24.5% (cold) and +14.2% (batch) slower, runs ±0.1% between processes,
// re-run in 3 rounds at the same speed. Both regressions must hold, with
// the change inside a narrow interval (it read "noisy, CI −25.7% …
// +108.6%" for the cold one), and the change must be the ratio of the
// baseline and candidate figures shown.
func TestConfirmHoldsReproducedRegression(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 1))
	names := []string{"memory/copy/a", "memory/copy/b", "memory/copy/c", "memory/copy/d", "saxpy/n=16777216/mode=batch", "saxpy/n=16777216/mode=cold"}
	slow := map[string]float64{"saxpy/n=16777216/mode=batch": 1.142, "saxpy/n=16777216/mode=cold": 1.245}
	job := func(id string, hour, rounds int, factor func(string) float64) []*model.Results {
		var out []*model.Results
		for r := range rounds {
			res := &model.Results{Schema: model.Schema, Run: model.Run{ID: fmt.Sprintf("%s-r%d", id, r), Group: id, Repo: "o/r",
				Commit: fmt.Sprintf("%040d", hour), Branch: "main", Event: model.EventPush, Testbed: "tb",
				StartedAt: time.Date(2026, 11, 24, hour, r, 0, 0, time.UTC)}}
			for _, n := range names {
				lv := 100 * factor(n) * math.Exp(0.001*rng.NormFloat64())
				s := make([]float64, 40)
				for i := range s {
					s[i] = lv * math.Exp(0.003*rng.NormFloat64())
				}
				suite, name, _ := strings.Cut(n, "/")
				res.Benchmarks = append(res.Benchmarks, model.Benchmark{Suite: suite, Name: name, Unit: "us", Better: model.Lower, Samples: s})
			}
			out = append(out, res)
		}
		return out
	}
	same := func(string) float64 { return 1 }
	slower := func(n string) float64 { return max(1, slow[n]) }
	b := &model.Baseline{}
	for _, r := range append(job("main-2", 2, 3, same), job("main-1", 1, 3, same)...) {
		b.Runs, b.Used = append(b.Runs, r), append(b.Used, r.Run.Ref())
	}
	cands := job("pr", 5, 3, slower)
	first, err := Judge(b, cands, DefaultJobs, compare.DefaultOptions())
	if err != nil || first.Summary.Regressions != 2 {
		t.Fatalf("first check: %+v, %v; want the 2 saxpy regressions", first.Summary, err)
	}
	rr := &fakeRerunner{rounds: job("pr-confirm", 6, 3, slower)}
	final, conf, _ := Confirm(context.Background(), rr, 3, b, cands, first)
	if conf.Held() != 2 || final.Summary.Regressions != 2 {
		t.Fatalf("held %d, final %+v; want both saxpy regressions held", conf.Held(), final.Summary)
	}
	for _, r := range final.Results {
		want, slowed := slow[r.Suite+"/"+r.Name]
		if !slowed {
			continue
		}
		if r.Verdict != compare.Regression || !(r.CILow > 0.1) || !(r.CILow <= want-1 && want-1 <= r.CIHigh) || r.CIHigh-r.CILow > 0.05 {
			t.Errorf("%s/%s: %s %+.1f%%, CI %+.1f%% … %+.1f%%: want a regression with a narrow CI around %+.1f%%",
				r.Suite, r.Name, r.Verdict, 100*r.Change, 100*r.CILow, 100*r.CIHigh, 100*(want-1))
		}
		if ratio := r.CandidateMedian/r.BaselineMedian - 1; math.Abs(ratio-r.Change) > 1e-9 || !r.RunLevel {
			t.Errorf("%s/%s: change %+.3f%% but the figures shown give %+.3f%%", r.Suite, r.Name, 100*r.Change, 100*ratio)
		}
	}
}

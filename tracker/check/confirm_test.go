package check

import (
	"context"
	"errors"
	"fmt"
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

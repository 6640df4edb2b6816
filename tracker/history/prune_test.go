package history

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

// countingPruner would delete n runs and records the queries it ran.
type countingPruner struct {
	n       int
	deleted bool
}

func (p *countingPruner) Prune(_ context.Context, q model.PruneQuery) (model.PruneResult, error) {
	if !q.DryRun {
		p.deleted = true
	}
	return model.PruneResult{Runs: p.n}, nil
}

func TestPruneGuard(t *testing.T) {
	tests := []struct {
		name        string
		n           int
		yes, dryRun bool
		wantDeleted bool
		wantTooMany bool
	}{
		{"under the limit", 5, false, false, true, false},
		{"over the limit", 500, false, false, false, true},
		{"over the limit with yes", 500, true, false, true, false},
		{"dry run over the limit", 500, false, true, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &countingPruner{n: tt.n}
			q, res, err := Prune(context.Background(), p, model.PruneQuery{DryRun: tt.dryRun}, tt.yes, 100)
			var tm *TooManyError
			if p.deleted != tt.wantDeleted || errors.As(err, &tm) != tt.wantTooMany || res.Runs != tt.n {
				t.Errorf("deleted %v, error %v, result %+v; want deleted %v, too many %v", p.deleted, err, res, tt.wantDeleted, tt.wantTooMany)
			}
			if tt.wantTooMany && (!q.DryRun || tm.Runs != 500 || tm.Max != 100) {
				t.Errorf("refused: query %+v, error %+v; want the dry run and 500 > 100", q, tm)
			}
		})
	}
}

func TestPruneSummary(t *testing.T) {
	cutoff := time.Date(2025, 3, 1, 12, 30, 0, 0, time.FixedZone("CET", 3600))
	for _, tc := range []struct {
		name string
		q    model.PruneQuery
		res  model.PruneResult
		want string
	}{
		{"deleted", model.PruneQuery{OlderThan: cutoff, BaselineBranch: "main", KeepBaseline: 3}, model.PruneResult{Runs: 5, Samples: 150},
			"deleted 5 run(s) (150 samples) started before 2025-03-01 11:30Z; kept the latest 3 main run(s) of each testbed"},
		{"dry run", model.PruneQuery{OlderThan: cutoff, BaselineBranch: "trunk", DryRun: true}, model.PruneResult{Runs: 2, Samples: 20},
			"would delete 2 run(s) (20 samples) started before 2025-03-01 11:30Z; kept the latest 0 trunk run(s) of each testbed"},
		{"no cutoff", model.PruneQuery{BaselineBranch: "main", KeepBaseline: 1}, model.PruneResult{},
			"deleted 0 run(s) (0 samples) started before the beginning; kept the latest 1 main run(s) of each testbed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := PruneSummary(tc.q, tc.res); got != tc.want {
				t.Errorf("PruneSummary = %q\nwant          %q", got, tc.want)
			}
		})
	}
}

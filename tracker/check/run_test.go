package check

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"testing"

	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
)

// downStore is a history whose database is unreachable.
type downStore struct{ err error }

func (s downStore) Baseline(context.Context, model.BaselineQuery) (*model.Baseline, error) {
	return nil, s.err
}

func (s downStore) Record(context.Context, *model.Results) (model.RecordOutcome, error) {
	return 0, s.err
}

// TestRunSpoolsOnlyWhenRecording checks that a database failure reaches
// the spool only when the check was asked to record (issue 11, defect 9).
func TestRunSpoolsOnlyWhenRecording(t *testing.T) {
	pr := filepath.Join("..", "..", "examples", "pr.json")
	cands, err := LoadCandidates([]string{pr})
	if err != nil {
		t.Fatal(err)
	}
	down := errors.New("database unreachable")
	for _, record := range []bool{false, true} {
		spooled := 0
		_, err := Run(context.Background(), RunOptions{
			Candidates: cands, Names: []string{pr},
			Settings: Settings{Query: Query{Branch: "main", Jobs: 3, History: 20}, Compare: compare.DefaultOptions()},
			Store:    downStore{down},
			Record: RecordPolicy{Runs: record, Spool: func(runs []*model.Results, err error) error {
				spooled += len(runs)
				return err
			}},
			Log: io.Discard,
		})
		switch {
		case !errors.Is(err, down):
			t.Errorf("record %v: error %v, want the store's", record, err)
		case record && spooled != 1:
			t.Errorf("record: %d runs spooled, want the candidate", spooled)
		case !record && spooled != 0:
			t.Errorf("no record: %d runs spooled, want none", spooled)
		}
	}
}

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

// TestRunSpoolsOnlyWhenRecording checks that a database failure reaches
// the spool only when the check was asked to record (issue 11, defect 9).
func TestRunSpoolsOnlyWhenRecording(t *testing.T) {
	pr := filepath.Join("..", "..", "examples", "pr.json")
	down := errors.New("database unreachable")
	for _, record := range []bool{false, true} {
		spooled := 0
		_, err := Run(context.Background(), RunOptions{
			Files:    []string{pr},
			Settings: Settings{Query: Query{Branch: "main", Jobs: 3, History: 20}, Compare: compare.DefaultOptions()},
			Record:   record,
			OpenStore: func(context.Context) (Store, func() error, error) {
				return nil, nil, down
			},
			Spool: func(runs []*model.Results, err error) error {
				spooled += len(runs)
				return err
			},
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

package check

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// demoStore records runs and fails the baseline query it was asked, so the
// test sees what Demo stored and what it asked for.
type demoStore struct {
	recorded []string // the run IDs, in order
	asked    model.BaselineQuery
}

var _ Store = (*demoStore)(nil)

var errDemoBaseline = errors.New("no baseline here")

func (s *demoStore) Record(_ context.Context, r *model.Results) (model.RecordOutcome, error) {
	s.recorded = append(s.recorded, r.Run.ID)
	return model.Recorded, nil
}

func (s *demoStore) Baseline(_ context.Context, q model.BaselineQuery) (*model.Baseline, error) {
	s.asked = q
	return nil, errDemoBaseline
}

// TestDemoRecordsTheHistoryAndAsksForMain checks that the demo stores every
// history run in order, never the PR run, narrates what it does, and judges
// against the main branch.
func TestDemoRecordsTheHistoryAndAsksForMain(t *testing.T) {
	dir := filepath.Join("..", "..", "examples")
	history, pr, err := DemoFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := resultsjson.LoadAll(append(append([]string(nil), history...), pr))
	if err != nil {
		t.Fatal(err)
	}
	var st demoStore
	var w strings.Builder
	_, err = Demo(context.Background(), &st, &w, history, pr)
	if !errors.Is(err, errDemoBaseline) {
		t.Fatalf("Demo: error %v, want the store's baseline error", err)
	}
	if len(st.recorded) != len(history) {
		t.Fatalf("recorded %d runs, want the %d history runs", len(st.recorded), len(history))
	}
	for i, id := range st.recorded {
		if id != runs[i].Run.ID {
			t.Errorf("run %d recorded is %s, want %s (%s)", i, id, runs[i].Run.ID, history[i])
		}
	}
	if st.asked.Branch != "main" {
		t.Errorf("baseline branch %q, want main", st.asked.Branch)
	}
	if want := fmt.Sprintf("perfgate demo: recorded %d main-branch runs from %s", len(history), filepath.Dir(history[0])); !strings.HasPrefix(w.String(), want) {
		t.Errorf("narration %q, want it to start %q", w.String(), want)
	}
}

func TestDemoFiles(t *testing.T) {
	history, pr, err := DemoFiles(filepath.Join("..", "..", "examples"))
	if err != nil || len(history) < 3 || !sort.StringsAreSorted(history) || filepath.Base(pr) != "pr.json" {
		t.Errorf("DemoFiles(examples) = %d history files (sorted: %v), %q, %v; want them sorted and pr.json", len(history), sort.StringsAreSorted(history), pr, err)
	}
	for _, dir := range []string{t.TempDir(), filepath.Join(t.TempDir(), "nowhere")} {
		if _, _, err := DemoFiles(dir); !model.IsInputError(err) || !strings.Contains(err.Error(), "--examples") {
			t.Errorf("DemoFiles(%s) = %v, want an input error pointing to --examples", dir, err)
		}
	}
}

package spool

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// recorder keeps the run IDs it recorded.
type recorder struct{ ids []string }

func (r *recorder) RecordSource(_ context.Context, src *resultsjson.Source) (model.RecordOutcome, error) {
	r.ids = append(r.ids, src.Run.ID)
	return model.Recorded, nil
}

// TestUploadDir: an empty spool says so without opening the database; a
// spooled run is recorded and removed; a database that cannot be opened
// leaves the spool as it was.
func TestUploadDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "spool")
	rec, opened := &recorder{}, 0
	open := func(context.Context) (history.SourceRecorder, func() error, error) {
		opened++
		return rec, func() error { return nil }, nil
	}
	var w bytes.Buffer
	if err := UploadDir(context.Background(), dir, open, &w); err != nil || opened != 0 || !strings.Contains(w.String(), "nothing to upload: "+dir) {
		t.Fatalf("empty spool: %v, opened %d, output %q", err, opened, w.String())
	}
	run := &model.Results{Schema: model.Schema, Run: model.Run{ID: "r1", Repo: "o/r", Commit: strings.Repeat("a", 40), Branch: "main",
		Event: model.EventPush, Testbed: "tb", StartedAt: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)},
		Benchmarks: []model.Benchmark{{Suite: "s", Name: "b", Unit: "ns", Better: model.Lower, Samples: []float64{1, 2, 3}}}}
	if _, err := Write(dir, []*model.Results{run}); err != nil {
		t.Fatal(err)
	}
	down := errors.New("db down")
	failing := func(context.Context) (history.SourceRecorder, func() error, error) { return nil, nil, down }
	if err := UploadDir(context.Background(), dir, failing, &w); !errors.Is(err, down) {
		t.Fatalf("a database that cannot be opened: %v", err)
	}
	if files, _ := Files(dir); len(files) != 1 {
		t.Fatalf("after a failed open the spool holds %v", files)
	}
	if err := UploadDir(context.Background(), dir, open, &w); err != nil || opened != 1 || len(rec.ids) != 1 || rec.ids[0] != "r1" {
		t.Fatalf("upload: %v, opened %d, recorded %v", err, opened, rec.ids)
	}
	if files, _ := Files(dir); len(files) != 0 {
		t.Errorf("after the upload the spool holds %v", files)
	}
}

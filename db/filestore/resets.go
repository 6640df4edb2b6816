package filestore

import (
	"context"
	"path/filepath"

	"github.com/perfgate/perfgate/tracker/model"
)

// The re-baseline points (perfgate baseline reset) live in one file,
// rewritten whole under the store's lock:
//
//	DIR/resets.json   a JSON array of model.Reset, oldest first

func (s *Store) resets() jsonList[model.Reset] {
	return jsonList[model.Reset]{filepath.Join(s.dir, "resets.json"), "baseline resets"}
}

// AddReset records a re-baseline point (model.Reset).
func (s *Store) AddReset(ctx context.Context, r model.Reset) error {
	if err := r.Check(); err != nil {
		return err
	}
	r.At = r.At.UTC()
	return s.withLock(ctx, true, func(bool) error { return s.resets().add(r) })
}

// Resets returns the re-baseline points, oldest first.
func (s *Store) Resets(ctx context.Context) ([]model.Reset, error) {
	var out []model.Reset
	err := s.withLock(ctx, false, func(exists bool) error {
		if !exists {
			return nil
		}
		var err error
		out, err = s.resets().read()
		return err
	})
	return out, err
}

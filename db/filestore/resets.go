package filestore

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/perfgate/perfgate/internal/atomicfile"
	"github.com/perfgate/perfgate/tracker/model"
)

// The re-baseline points (perfgate baseline reset) live in one file,
// rewritten whole under the store's lock:
//
//	DIR/resets.json   a JSON array of model.Reset, oldest first

func (s *Store) resetsPath() string { return filepath.Join(s.dir, "resets.json") }

// AddReset records a re-baseline point (model.Reset).
func (s *Store) AddReset(ctx context.Context, r model.Reset) error {
	if err := r.Check(); err != nil {
		return err
	}
	r.At = r.At.UTC()
	return s.withLock(ctx, true, func(bool) error {
		resets, err := s.readResets()
		if err != nil {
			return err
		}
		b, err := json.MarshalIndent(append(resets, r), "", "  ")
		if err != nil {
			return infra("encode baseline resets", err)
		}
		if err := atomicfile.Write(s.resetsPath(), b); err != nil {
			return infra("save baseline resets", err)
		}
		return nil
	})
}

// Resets returns the re-baseline points, oldest first.
func (s *Store) Resets(ctx context.Context) ([]model.Reset, error) {
	var out []model.Reset
	err := s.withLock(ctx, false, func(exists bool) error {
		if !exists {
			return nil
		}
		var err error
		out, err = s.readResets()
		return err
	})
	return out, err
}

func (s *Store) readResets() ([]model.Reset, error) {
	b, err := os.ReadFile(s.resetsPath())
	if notExist(err) {
		return nil, nil
	} else if err != nil {
		return nil, infra("read baseline resets", err)
	}
	var out []model.Reset
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, infra("read baseline resets", err)
	}
	return out, nil
}

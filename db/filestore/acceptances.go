package filestore

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/perfgate/perfgate/internal/atomicfile"
	"github.com/perfgate/perfgate/tracker/model"
)

// The regressions accepted on pull requests (/perfgate accept) live in one
// file, rewritten whole under the store's lock:
//
//	DIR/acceptances.json   a JSON array of model.Acceptance, oldest first

func (s *Store) acceptancesPath() string { return filepath.Join(s.dir, "acceptances.json") }

// AddAcceptance records a regression accepted on a pull request
// (model.Acceptance).
func (s *Store) AddAcceptance(ctx context.Context, a model.Acceptance) error {
	if err := a.Check(); err != nil {
		return err
	}
	a.At = a.At.UTC()
	return s.withLock(ctx, true, func(bool) error {
		all, err := s.readAcceptances()
		if err != nil {
			return err
		}
		b, err := json.MarshalIndent(append(all, a), "", "  ")
		if err != nil {
			return infra("encode acceptances", err)
		}
		if err := atomicfile.Write(s.acceptancesPath(), b); err != nil {
			return infra("save acceptances", err)
		}
		return nil
	})
}

// Acceptances returns the acceptances of pull request pr of repo (pr 0:
// of every pull request of repo), oldest first.
func (s *Store) Acceptances(ctx context.Context, repo string, pr int) ([]model.Acceptance, error) {
	var out []model.Acceptance
	err := s.withLock(ctx, false, func(exists bool) error {
		if !exists {
			return nil
		}
		all, err := s.readAcceptances()
		for _, a := range all {
			if a.Repo == repo && (pr == 0 || a.PR == pr) {
				out = append(out, a)
			}
		}
		return err
	})
	return out, err
}

func (s *Store) readAcceptances() ([]model.Acceptance, error) {
	b, err := os.ReadFile(s.acceptancesPath())
	if notExist(err) {
		return nil, nil
	} else if err != nil {
		return nil, infra("read acceptances", err)
	}
	var out []model.Acceptance
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, infra("read acceptances", err)
	}
	return out, nil
}

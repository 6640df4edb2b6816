package filestore

import (
	"context"
	"path/filepath"

	"github.com/perfgate/perfgate/tracker/model"
)

// The regressions accepted on pull requests (/perfgate accept) live in one
// file, rewritten whole under the store's lock:
//
//	DIR/acceptances.json   a JSON array of model.Acceptance, oldest first

func (s *Store) acceptances() jsonList[model.Acceptance] {
	return jsonList[model.Acceptance]{filepath.Join(s.dir, "acceptances.json"), "acceptances"}
}

// AddAcceptance records a regression accepted on a pull request
// (model.Acceptance).
func (s *Store) AddAcceptance(ctx context.Context, a model.Acceptance) error {
	if err := a.Check(); err != nil {
		return err
	}
	a.At = a.At.UTC()
	return s.withLock(ctx, true, func(bool) error { return s.acceptances().add(a) })
}

// Acceptances returns the acceptances of pull request pr of repo (pr 0:
// of every pull request of repo), oldest first.
func (s *Store) Acceptances(ctx context.Context, repo string, pr int) ([]model.Acceptance, error) {
	var out []model.Acceptance
	err := s.withLock(ctx, false, func(exists bool) error {
		if !exists {
			return nil
		}
		all, err := s.acceptances().read()
		for _, a := range all {
			if a.Repo == repo && (pr == 0 || a.PR == pr) {
				out = append(out, a)
			}
		}
		return err
	})
	return out, err
}

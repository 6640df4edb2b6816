package db

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/perfgate/perfgate/tracker/model"
)

// AddAcceptance records a regression accepted on a pull request
// (model.Acceptance).
func (s *Store) AddAcceptance(ctx context.Context, a model.Acceptance) error {
	if err := a.Check(); err != nil {
		return err
	}
	changes := a.Changes
	if changes == nil {
		changes = map[string]float64{}
	}
	_, err := s.pool.Exec(ctx, `insert into acceptances (repo, pr, head_sha, glob, who, reason, at, comment_url, changes)
		values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, a.Repo, a.PR, a.HeadSHA, a.Glob, a.Who, a.Reason, a.At, a.Comment, changes)
	if err != nil {
		return infra("record acceptance", err)
	}
	return nil
}

// Acceptances returns the acceptances of pull request pr of repo (pr 0:
// of every pull request of repo), oldest first.
func (s *Store) Acceptances(ctx context.Context, repo string, pr int) ([]model.Acceptance, error) {
	rows, err := s.pool.Query(ctx, `select repo, pr, head_sha, glob, who, reason, at, comment_url, changes from acceptances
		where repo = $1 and ($2 = 0 or pr = $2) order by at, id`, repo, pr)
	if err != nil {
		return nil, infra("read acceptances", err)
	}
	var out []model.Acceptance
	var a model.Acceptance
	if _, err := pgx.ForEachRow(rows, []any{&a.Repo, &a.PR, &a.HeadSHA, &a.Glob, &a.Who, &a.Reason, &a.At, &a.Comment, &a.Changes}, func() error {
		a.At = a.At.UTC()
		if len(a.Changes) == 0 {
			a.Changes = nil
		}
		out = append(out, a)
		a.Changes = nil
		return nil
	}); err != nil {
		return nil, infra("read acceptances", err)
	}
	return out, nil
}

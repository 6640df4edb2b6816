package db

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/perfgate/perfgate/tracker/model"
)

// AddReset records a re-baseline point (model.Reset).
func (s *Store) AddReset(ctx context.Context, r model.Reset) error {
	if err := r.Check(); err != nil {
		return err
	}
	_, err := s.pool.Exec(ctx, `insert into baseline_resets (repo, glob, at, who, reason) values ($1, $2, $3, $4, $5)`,
		r.Repo, r.Glob, r.At, r.Who, r.Reason)
	if err != nil {
		return infra("record baseline reset", err)
	}
	return nil
}

// Resets returns the re-baseline points, oldest first.
func (s *Store) Resets(ctx context.Context) ([]model.Reset, error) {
	rows, err := s.pool.Query(ctx, `select repo, glob, at, who, reason from baseline_resets order by at, id`)
	if err != nil {
		return nil, infra("read baseline resets", err)
	}
	var out []model.Reset
	var r model.Reset
	if _, err := pgx.ForEachRow(rows, []any{&r.Repo, &r.Glob, &r.At, &r.Who, &r.Reason}, func() error {
		r.At = r.At.UTC()
		out = append(out, r)
		return nil
	}); err != nil {
		return nil, infra("read baseline resets", err)
	}
	return out, nil
}

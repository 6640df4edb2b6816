package db

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/perfgate/perfgate/tracker/model"
)

// SaveShard stores a shard's report, replacing the shard's earlier one.
func (s *Store) SaveShard(ctx context.Context, r model.ShardReport) error {
	_, err := s.pool.Exec(ctx, `
		insert into shard_reports (set_key, shard, shards, data) values ($1, $2, $3, $4)
		on conflict (set_key, shard) do update
		set shards = excluded.shards, data = excluded.data, recorded_at = now()`,
		r.Set, r.Shard, r.Shards, r.Data)
	if err != nil {
		return infra("save shard report", err)
	}
	return nil
}

// Shards returns the reports stored for the shard set, by shard.
func (s *Store) Shards(ctx context.Context, set string) ([]model.ShardReport, error) {
	rows, err := s.pool.Query(ctx, `select shard, shards, data, recorded_at from shard_reports
		where set_key = $1 order by shard`, set)
	if err != nil {
		return nil, infra("read shard reports", err)
	}
	var out []model.ShardReport
	r := model.ShardReport{Set: set}
	if _, err := pgx.ForEachRow(rows, []any{&r.Shard, &r.Shards, &r.Data, &r.RecordedAt}, func() error {
		r.RecordedAt = r.RecordedAt.UTC()
		out = append(out, r)
		r = model.ShardReport{Set: set}
		return nil
	}); err != nil {
		return nil, infra("read shard reports", err)
	}
	return out, nil
}

package db

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/perfgate/perfgate/tracker/model"
)

// loadRuns reads whole runs by primary key, in the order of pks.
func (s *Store) loadRuns(ctx context.Context, pks []int64) ([]*model.Results, error) {
	if len(pks) == 0 {
		return nil, nil
	}
	byPK, err := s.loadRunBlocks(ctx, pks)
	if err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `
		select rb.run_pk, b.suite, b.name, coalesce(rb.params, b.params), b.unit, b.better,
		       s.vals, rb.metrics, rb.info, rb.summary_only, coalesce(rb.error, '')
		from run_benchmarks rb
		join benchmarks b on b.id = rb.benchmark_id
		left join samples s on s.run_pk = rb.run_pk and s.benchmark_id = rb.benchmark_id
		where rb.run_pk = any($1)
		order by rb.run_pk, rb.ord`, pks)
	if err != nil {
		return nil, infra("read benchmarks", err)
	}
	var pk int64
	var b model.Benchmark
	_, err = pgx.ForEachRow(rows, []any{&pk, &b.Suite, &b.Name, &b.Params, &b.Unit, &b.Better,
		&b.Samples, &b.Metrics, &b.Info, &b.SummaryOnly, &b.Error}, func() error {
		r := byPK[pk]
		r.Benchmarks = append(r.Benchmarks, b)
		b = model.Benchmark{}
		return nil
	})
	if err != nil {
		return nil, infra("read benchmarks", err)
	}
	out := make([]*model.Results, len(pks))
	for i, pk := range pks {
		out[i] = byPK[pk]
	}
	return out, nil
}

// loadRunBlocks reads the run blocks of pks.
func (s *Store) loadRunBlocks(ctx context.Context, pks []int64) (map[int64]*model.Results, error) {
	rows, err := s.pool.Query(ctx, `
		select r.pk, r.id, r.repo, r.commit, r.branch, coalesce(r.pr, 0), r.event, t.label,
		       r.started_at, coalesce(r.run_group, ''), r.env
		from runs r join testbeds t on t.id = r.testbed_id
		where r.pk = any($1)`, pks)
	if err != nil {
		return nil, infra("read runs", err)
	}
	byPK := make(map[int64]*model.Results, len(pks))
	var pk int64
	var run model.Run
	_, err = pgx.ForEachRow(rows, []any{&pk, &run.ID, &run.Repo, &run.Commit, &run.Branch, &run.PR,
		&run.Event, &run.Testbed, &run.StartedAt, &run.Group, &run.Env}, func() error {
		run.StartedAt = run.StartedAt.UTC()
		byPK[pk] = &model.Results{Schema: model.Schema, Run: run}
		run = model.Run{}
		return nil
	})
	if err != nil {
		return nil, infra("read runs", err)
	}
	if len(byPK) != len(pks) {
		return nil, infra("read runs", fmt.Errorf("found %d of %d runs (pruned meanwhile?)", len(byPK), len(pks)))
	}
	return byPK, nil
}

package db

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/perfgate/perfgate/tracker/model"
)

// A querier runs queries: the pool, or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// loadRuns reads whole runs by primary key, in the order of pks: the run
// blocks, then the benchmarks with their samples (a range of
// run_benchmarks_pkey per run), in one batch (one round trip). each, when
// not nil, sees every benchmark as it arrives, and takes it (true) or
// lets it be appended to its run.
func loadRuns(ctx context.Context, q querier, pks []int64, each func(pk int64, r *model.Results, b *model.Benchmark) bool) ([]*model.Results, error) {
	if len(pks) == 0 {
		return nil, nil
	}
	batch := &pgx.Batch{}
	byPK := make(map[int64]*model.Results, len(pks))
	queueRunBlocks(batch, pks, byPK)
	queueBenchmarks(batch, pks, byPK, each)
	if err := q.SendBatch(ctx, batch).Close(); err != nil {
		return nil, infra("read runs", err)
	}
	out := make([]*model.Results, len(pks))
	for i, pk := range pks {
		if out[i] = byPK[pk]; out[i] == nil {
			return nil, infra("read runs", fmt.Errorf("run %d vanished (pruned meanwhile?)", pk))
		}
	}
	return out, nil
}

func queueRunBlocks(batch *pgx.Batch, pks []int64, byPK map[int64]*model.Results) {
	var pk int64
	var run model.Run
	batch.Queue(`
		select r.pk, r.id, r.repo, r.commit, r.branch, coalesce(r.pr, 0), r.event, t.label,
		       r.started_at, coalesce(r.run_group, ''), r.env
		from runs r join testbeds t on t.id = r.testbed_id
		where r.pk = any($1)`, pks).Query(func(rows pgx.Rows) error {
		_, err := pgx.ForEachRow(rows, []any{&pk, &run.ID, &run.Repo, &run.Commit, &run.Branch, &run.PR,
			&run.Event, &run.Testbed, &run.StartedAt, &run.Group, &run.Env}, func() error {
			run.StartedAt = run.StartedAt.UTC()
			byPK[pk] = &model.Results{Schema: model.Schema, Run: run}
			run = model.Run{}
			return nil
		})
		return err
	})
}

// queueBenchmarks reads the benchmarks of the runs, with their samples, in
// recorded order, offering each to each (when not nil) as it arrives.
func queueBenchmarks(batch *pgx.Batch, pks []int64, byPK map[int64]*model.Results, each func(pk int64, r *model.Results, b *model.Benchmark) bool) {
	var pk int64
	var b model.Benchmark
	batch.Queue(`
		select rb.run_pk, b.suite, b.name, coalesce(rb.params, b.params), b.unit, b.better,
		       rb.metrics, rb.info, rb.summary_only, coalesce(rb.error, ''), rb.vals
		from run_benchmarks rb join benchmarks b on b.id = rb.benchmark_id
		where rb.run_pk = any($1)
		order by rb.run_pk, rb.ord`, pks).Query(func(rows pgx.Rows) error {
		_, err := pgx.ForEachRow(rows, []any{&pk, &b.Suite, &b.Name, &b.Params, &b.Unit, &b.Better,
			&b.Metrics, &b.Info, &b.SummaryOnly, &b.Error, &b.Samples}, func() error {
			r := byPK[pk]
			if r == nil {
				return fmt.Errorf("benchmark of run %d, which is not stored", pk)
			}
			if each == nil || !each(pk, r, &b) {
				r.Benchmarks = append(r.Benchmarks, b)
			}
			b = model.Benchmark{}
			return nil
		})
		return err
	})
}

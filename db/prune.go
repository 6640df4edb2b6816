package db

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/perfgate/perfgate/tracker/model"
)

// pruneBatch is how many runs one prune transaction deletes: each run goes
// whole, and a prune cut short keeps what it did.
const pruneBatch = 100

// Prune deletes the runs started before q.OlderThan, except every shard of
// the latest q.KeepBaseline baseline jobs of each repo and configuration
// (testbed label, GPU, driver major, CUDA). Runs of other branches and
// pull requests go first, in batches of whole runs. Shard reports saved
// before q.OlderThan go too.
//
// A prune reports what it deleted itself: two prunes at once plan the same
// runs, and each counts only the rows its own deletes removed (a run the
// other deleted first is gone when its delete gets the row), so their
// counts add up to what went.
func (s *Store) Prune(ctx context.Context, q model.PruneQuery) (model.PruneResult, error) {
	doomed, err := s.prunePlan(ctx, q)
	if err != nil {
		return model.PruneResult{}, err
	}
	var res model.PruneResult
	if q.DryRun {
		for _, d := range doomed {
			res.Runs++
			res.Samples += d.samples
		}
		err := s.pool.QueryRow(ctx, "select count(*) from shard_reports where recorded_at < $1", q.OlderThan).Scan(&res.ShardReports)
		if err != nil {
			return res, infra("plan prune", err)
		}
		return res, nil
	}
	for start := 0; start < len(doomed); start += pruneBatch {
		batch := doomed[start:min(start+pruneBatch, len(doomed))]
		pks := make([]int64, len(batch))
		for i, d := range batch {
			pks[i] = d.pk
		}
		var runs, samples int
		if err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) (err error) {
			runs, samples, err = deleteRuns(ctx, tx, pks)
			return err
		}); err != nil {
			return res, infra("prune", err)
		}
		res.Runs, res.Samples = res.Runs+runs, res.Samples+samples
	}
	tag, err := s.pool.Exec(ctx, "delete from shard_reports where recorded_at < $1", q.OlderThan)
	if err != nil {
		return res, infra("prune shard reports", err)
	}
	res.ShardReports = int(tag.RowsAffected())
	return res, nil
}

// A doomedRun is a run a prune deletes, with its sample count.
type doomedRun struct {
	pk      int64
	samples int
}

// prunePlan lists the runs to delete, non-baseline runs first. Baseline
// runs are ranked by job (model.JobKey; a group within its repository),
// newest shard first, so the kept jobs are kept whole.
func (s *Store) prunePlan(ctx context.Context, q model.PruneQuery) ([]doomedRun, error) {
	rows, err := s.pool.Query(ctx, `
		with baseline as (
			select r.pk, r.started_at, r.id,
			       r.repo, t.label, t.gpu, t.driver_major, t.cuda,
			       case when r.run_group is null then 'r:' || r.id else 'g:' || r.run_group end as job
			from runs r join testbeds t on t.id = r.testbed_id
			where r.branch = $2 and r.baseline_eligible
		), jobs as (
			select pk,
			       repo, label, gpu, driver_major, cuda,
			       first_value(started_at) over job as job_at, first_value(id) over job as job_id
			from baseline
			window job as (partition by repo, label, gpu, driver_major, cuda, job order by started_at desc, id desc)
		), ranked as (
			select pk, dense_rank() over (
				partition by repo, label, gpu, driver_major, cuda
				order by job_at desc, job_id desc) as rank
			from jobs
		)
		select r.pk, coalesce((select sum(n) from run_benchmarks rb where rb.run_pk = r.pk), 0)
		from runs r left join ranked k on k.pk = r.pk
		where r.started_at < $1 and (k.rank is null or k.rank > $3)
		order by k.rank is not null, r.started_at, r.pk`,
		q.OlderThan, q.BaselineBranch, max(q.KeepBaseline, 0))
	if err != nil {
		return nil, infra("plan prune", err)
	}
	var out []doomedRun
	var d doomedRun
	_, err = pgx.ForEachRow(rows, []any{&d.pk, &d.samples}, func() error {
		out = append(out, d)
		return nil
	})
	if err != nil {
		return nil, infra("plan prune", err)
	}
	return out, nil
}

// deleteRuns deletes runs with their benchmarks and samples, and returns
// how many runs and samples it deleted. The runs' rows are locked first,
// so that a concurrent prune's delete of the same runs waits, then finds
// them gone. Stored comparisons name runs by id and survive.
func deleteRuns(ctx context.Context, tx pgx.Tx, pks []int64) (runs, samples int, err error) {
	rows, err := tx.Query(ctx, "select pk from runs where pk = any($1) order by pk for update", pks)
	if err != nil {
		return 0, 0, err
	}
	var locked []int64
	var pk int64
	if _, err := pgx.ForEachRow(rows, []any{&pk}, func() error { locked = append(locked, pk); return nil }); err != nil {
		return 0, 0, err
	}
	if len(locked) == 0 {
		return 0, 0, nil
	}
	err = tx.QueryRow(ctx, `with gone as (delete from run_benchmarks where run_pk = any($1) returning n)
		select coalesce(sum(n), 0) from gone`, locked).Scan(&samples)
	if err != nil {
		return 0, 0, err
	}
	tag, err := tx.Exec(ctx, "delete from runs where pk = any($1)", locked)
	if err != nil {
		return 0, 0, err
	}
	return int(tag.RowsAffected()), samples, nil
}

package db

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/perfgate/perfgate/tracker/model"
)

// A testbed is a testbeds row.
type testbed struct {
	id int64
	fp model.Fingerprint
}

// Baseline returns the latest q.Runs comparable baseline runs of q.Branch,
// newest first, and the runs passed over, by the rules documented on
// model.Baseline. Comparability is decided in Go by model.Comparable over
// the (few) testbeds of the candidate's label, so SQL only filters by
// testbed id and the rule lives in one place.
func (s *Store) Baseline(ctx context.Context, q model.BaselineQuery) (*model.Baseline, error) {
	if q.Runs < 1 {
		return nil, fmt.Errorf("db: baseline of %d runs: need at least 1", q.Runs)
	}
	var b *model.Baseline
	// One snapshot for all the reads, so a concurrent prune or record
	// cannot make the runs chosen and the runs read disagree.
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly},
		func(tx pgx.Tx) error {
			var err error
			b, err = baseline(ctx, tx, q)
			return err
		})
	if err != nil {
		if !errors.As(err, new(*model.InfraError)) {
			err = infra("select baseline", err)
		}
		return nil, err
	}
	return b, nil
}

func baseline(ctx context.Context, tx querier, q model.BaselineQuery) (*model.Baseline, error) {
	tbs, err := testbedsLabelled(ctx, tx, q.Testbed.Testbed)
	if err != nil {
		return nil, err
	}
	comparable := []int64{} // not nil: nil encodes as NULL, and "<> all(NULL)" matches nothing
	for _, tb := range tbs {
		if ok, _ := model.Comparable(q.Testbed, tb.fp); ok {
			comparable = append(comparable, tb.id)
		}
	}
	used, err := baselineRuns(ctx, tx, q, comparable)
	if err != nil {
		return nil, err
	}
	b := &model.Baseline{}
	pks := make([]int64, len(used))
	for i, u := range used {
		pks[i] = u.pk
	}
	if b.Runs, err = loadRuns(ctx, tx, pks); err != nil {
		return nil, err
	}
	for _, r := range b.Runs {
		b.Used = append(b.Used, r.Run.Ref())
	}
	b.Incomparable, err = passedOver(ctx, tx, q, comparable, used)
	return b, err
}

func testbedsLabelled(ctx context.Context, tx querier, label string) ([]testbed, error) {
	rows, err := tx.Query(ctx, `select id, label, gpu, driver_major, cuda from testbeds where label = $1`, label)
	if err != nil {
		return nil, infra("read testbeds", err)
	}
	var out []testbed
	var tb testbed
	_, err = pgx.ForEachRow(rows, []any{&tb.id, &tb.fp.Testbed, &tb.fp.GPU, &tb.fp.DriverMajor, &tb.fp.CUDA}, func() error {
		out = append(out, tb)
		return nil
	})
	if err != nil {
		return nil, infra("read testbeds", err)
	}
	return out, nil
}

// A usedRun is a run chosen as baseline: its key and its place in the
// newest-first order.
type usedRun struct {
	pk        int64
	id        string
	startedAt time.Time
}

// baselineRuns picks the latest q.Runs baseline runs on the comparable
// testbeds: one branch of a union per testbed (there are few), each a
// top-K scan of the runs_baseline index for that testbed id, merged. With
// the id a bound value rather than a join column, the planner walks the
// testbed's own runs even when they are sparse among all runs.
func baselineRuns(ctx context.Context, tx querier, q model.BaselineQuery, testbeds []int64) ([]usedRun, error) {
	if len(testbeds) == 0 {
		return nil, nil
	}
	args := []any{q.Branch, q.Repo, q.Exclude, q.Runs}
	branches := make([]string, len(testbeds))
	for i, tb := range testbeds {
		args = append(args, tb)
		branches[i] = fmt.Sprintf(`(select pk, id, started_at from runs
			where branch = $1 and testbed_id = $%d and baseline_eligible
			  and ($2 = '' or repo = $2) and id <> $3
			order by started_at desc, id desc limit $4)`, len(args))
	}
	rows, err := tx.Query(ctx, "select pk, id, started_at from ("+strings.Join(branches, " union all ")+`) u
		order by started_at desc, id desc limit $4`, args...)
	if err != nil {
		return nil, infra("select baseline runs", err)
	}
	var out []usedRun
	var u usedRun
	_, err = pgx.ForEachRow(rows, []any{&u.pk, &u.id, &u.startedAt}, func() error {
		out = append(out, u)
		return nil
	})
	if err != nil {
		return nil, infra("select baseline runs", err)
	}
	return out, nil
}

// passedOver returns the baseline runs of the branch that were not
// comparable, by model.Baseline's rules: at most K, newest first; any
// testbed when nothing was used; else only the candidate's label, and only
// runs newer than the oldest used once K were found.
func passedOver(ctx context.Context, tx querier, q model.BaselineQuery, comparable []int64, used []usedRun) ([]model.Incomparable, error) {
	anyLabel := len(used) == 0
	after, afterID := time.Time{}, ""
	if len(used) == q.Runs {
		after, afterID = used[len(used)-1].startedAt, used[len(used)-1].id
	}
	rows, err := tx.Query(ctx, `
		select r.id, r.commit, r.branch, t.label, r.started_at, t.gpu, t.driver_major, t.cuda
		from runs r join testbeds t on t.id = r.testbed_id
		where r.branch = $1 and r.baseline_eligible and r.testbed_id <> all($2::bigint[])
		  and ($3 = '' or r.repo = $3) and r.id <> $4
		  and ($5 or t.label = $6)
		  and ($7 = '' or (r.started_at, r.id) > ($8, $7))
		order by r.started_at desc, r.id desc
		limit $9`, q.Branch, comparable, q.Repo, q.Exclude, anyLabel, q.Testbed.Testbed, afterID, after, q.Runs)
	if err != nil {
		return nil, infra("select passed-over runs", err)
	}
	var out []model.Incomparable
	var ref model.RunRef
	var fp model.Fingerprint
	_, err = pgx.ForEachRow(rows, []any{&ref.ID, &ref.Commit, &ref.Branch, &ref.Testbed, &ref.StartedAt,
		&fp.GPU, &fp.DriverMajor, &fp.CUDA}, func() error {
		fp.Testbed = ref.Testbed
		_, why := model.Comparable(q.Testbed, fp)
		ref.StartedAt = ref.StartedAt.UTC()
		out = append(out, model.Incomparable{Run: ref, Reason: why})
		return nil
	})
	if err != nil {
		return nil, infra("select passed-over runs", err)
	}
	return out, nil
}

package db

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
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

// Baseline returns every comparable run of the latest q.Jobs baseline jobs
// of q.Branch (model.BaselineQuery), newest first, and the runs passed over, by the rules documented on
// model.Baseline. Comparability is decided in Go by model.Comparable over
// the (few) testbeds of the candidate's label, so SQL only filters by
// testbed id and the rule lives in one place.
func (s *Store) Baseline(ctx context.Context, q model.BaselineQuery) (*model.Baseline, error) {
	if q.Jobs < 1 {
		return nil, fmt.Errorf("db: baseline of %d jobs: need at least 1", q.Jobs)
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
	used, full, err := baselineRuns(ctx, tx, q, comparable)
	if err != nil {
		return nil, err
	}
	b := &model.Baseline{}
	pks := make([]int64, len(used))
	jobs := make([]model.JobKey, len(used))
	for i, u := range used {
		pks[i], jobs[i] = u.pk, u.job
	}
	// The benchmarks of summarized jobs are reduced row by row as they
	// arrive, so their samples are never all held at once.
	var reduce map[int64]bool
	for i, rank := range model.JobRanks(jobs) {
		if q.Summarizes(rank) {
			if reduce == nil {
				reduce = map[int64]bool{}
			}
			reduce[pks[i]] = true
		}
	}
	sum := q.Summarizer()
	if b.Runs, err = loadRuns(ctx, tx, pks, func(pk int64, r *model.Results, bm *model.Benchmark) bool {
		if reduce[pk] {
			sum.Add(r, bm)
		}
		return reduce[pk]
	}); err != nil {
		return nil, err
	}
	for _, r := range b.Runs {
		b.Used = append(b.Used, r.Run.Ref())
	}
	b.Incomparable, err = passedOver(ctx, tx, q, comparable, used, full)
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

// A usedRun is a run chosen as baseline: its key, its place in the
// newest-first order, and its job.
type usedRun struct {
	pk        int64
	id        string
	startedAt time.Time
	job       model.JobKey
}

// baselineRuns picks every shard of the latest q.Jobs baseline jobs on the
// comparable testbeds (model.BaselineQuery), newest first, and reports
// whether q.Jobs jobs were found. It reads the newest runs in windows of
// growing size until the window holds q.Jobs jobs (most jobs are one run,
// so the first window of q.Jobs runs usually does); the shards of the
// chosen groups that fall outside the window are then read by group.
func baselineRuns(ctx context.Context, tx querier, q model.BaselineQuery, testbeds []int64) ([]usedRun, bool, error) {
	if len(testbeds) == 0 {
		return nil, false, nil
	}
	var window []usedRun
	jobs := map[model.JobKey]bool{}
	for limit := q.Jobs; ; limit *= 4 {
		var err error
		if window, err = newestRuns(ctx, tx, q, testbeds, limit); err != nil {
			return nil, false, err
		}
		clear(jobs)
		for _, u := range window { // newest first: a job's first run is its newest shard
			if len(jobs) < q.Jobs {
				jobs[u.job] = true
			}
		}
		if len(jobs) == q.Jobs || len(window) < limit {
			break
		}
	}
	var used []usedRun
	var groups []model.JobKey
	for _, u := range window {
		if jobs[u.job] && u.job.Group == "" {
			used = append(used, u)
		}
	}
	for k := range jobs {
		if k.Group != "" {
			groups = append(groups, k)
		}
	}
	shards, err := groupShards(ctx, tx, q, testbeds, groups)
	if err != nil {
		return nil, false, err
	}
	used = append(used, shards...)
	slices.SortFunc(used, func(a, b usedRun) int {
		return cmp.Or(b.startedAt.Compare(a.startedAt), cmp.Compare(b.id, a.id))
	})
	return used, len(jobs) == q.Jobs, nil
}

// newestRuns returns the latest limit baseline runs on the comparable
// testbeds: one branch of a union per testbed (there are few), each a top-K
// scan of the runs_baseline index for that testbed id, merged. With the id a
// bound value rather than a join column, the planner walks the testbed's
// own runs even when they are sparse among all runs.
func newestRuns(ctx context.Context, tx querier, q model.BaselineQuery, testbeds []int64, limit int) ([]usedRun, error) {
	runs, repos, groups := q.ExcludeArgs()
	args := []any{q.Branch, q.Repo, runs, limit, repos, groups}
	branches := make([]string, len(testbeds))
	for i, tb := range testbeds {
		args = append(args, tb)
		branches[i] = fmt.Sprintf(`(select pk, id, started_at, repo, run_group from runs
			where branch = $1 and testbed_id = $%d and baseline_eligible
			  and ($2 = '' or repo = $2) and `+notExcluded("", "$3", "$5", "$6")+`
			order by started_at desc, id desc limit $4)`, len(args))
	}
	return scanUsed(tx.Query(ctx, "select pk, id, started_at, repo, run_group from ("+
		strings.Join(branches, " union all ")+`) u
		order by started_at desc, id desc limit $4`, args...))
}

// groupShards returns the baseline runs on the comparable testbeds of the
// run groups groups, through the runs_group index.
func groupShards(ctx context.Context, tx querier, q model.BaselineQuery, testbeds []int64, groups []model.JobKey) ([]usedRun, error) {
	if len(groups) == 0 {
		return nil, nil
	}
	exRuns, exRepos, exGroups := q.ExcludeArgs()
	repos, names := make([]string, len(groups)), make([]string, len(groups))
	for i, g := range groups {
		repos[i], names[i] = g.Repo, g.Group
	}
	return scanUsed(tx.Query(ctx, `
		select r.pk, r.id, r.started_at, r.repo, r.run_group
		from unnest($1::text[], $2::text[]) g(repo, name)
		join runs r on r.repo = g.repo and r.run_group = g.name
		where r.run_group is not null and r.baseline_eligible
		  and r.branch = $3 and r.testbed_id = any($4) and `+notExcluded("r.", "$5", "$6", "$7"),
		repos, names, q.Branch, testbeds, exRuns, exRepos, exGroups))
}

// scanUsed reads the rows of newestRuns or groupShards.
func scanUsed(rows pgx.Rows, err error) ([]usedRun, error) {
	if err != nil {
		return nil, infra("select baseline runs", err)
	}
	var out []usedRun
	var u usedRun
	var repo string
	var group *string
	_, err = pgx.ForEachRow(rows, []any{&u.pk, &u.id, &u.startedAt, &repo, &group}, func() error {
		r := model.Run{ID: u.id, Repo: repo}
		if group != nil {
			r.Group = *group
		}
		u.job = r.JobKey()
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
// runs newer than the oldest used once K jobs were found (full).
func passedOver(ctx context.Context, tx querier, q model.BaselineQuery, comparable []int64, used []usedRun, full bool) ([]model.Incomparable, error) {
	anyLabel := len(used) == 0
	exRuns, exRepos, exGroups := q.ExcludeArgs()
	after, afterID := time.Time{}, ""
	if full {
		after, afterID = used[len(used)-1].startedAt, used[len(used)-1].id
	}
	rows, err := tx.Query(ctx, `
		select r.id, r.commit, r.branch, t.label, r.started_at, t.gpu, t.driver_major, t.cuda
		from runs r join testbeds t on t.id = r.testbed_id
		where r.branch = $1 and r.baseline_eligible and r.testbed_id <> all($2::bigint[])
		  and ($3 = '' or r.repo = $3) and `+notExcluded("r.", "$4", "$10", "$11")+`
		  and ($5 or t.label = $6)
		  and ($7 = '' or (r.started_at, r.id) > ($8, $7))
		order by r.started_at desc, r.id desc
		limit $9`, q.Branch, comparable, q.Repo, exRuns, anyLabel, q.Testbed.Testbed, afterID, after, q.Jobs, exRepos, exGroups)
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

// notExcluded is the SQL condition that a runs row (columns prefixed by
// p) belongs to no job of BaselineQuery.Exclude: runs is the parameter of
// the excluded ungrouped run IDs, repos and groups those of the excluded
// run groups (model.BaselineQuery.ExcludeArgs).
func notExcluded(p, runs, repos, groups string) string {
	return fmt.Sprintf(`%[1]sid <> all(%[2]s::text[]) and (%[1]srun_group is null or (%[1]srepo, %[1]srun_group) not in
			(select x.repo, x.name from unnest(%[3]s::text[], %[4]s::text[]) x(repo, name)))`, p, runs, repos, groups)
}

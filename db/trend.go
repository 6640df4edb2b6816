package db

import (
	"cmp"
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/perfgate/perfgate/tracker/model"
)

// Trend returns one series per benchmark and unit (suite, name, unit: a
// unit change starts a series, model.TrendSeries) matching q, one point per
// run with samples, oldest first; series sorted by suite, name, then unit.
// Points come from the medians and CVs computed at ingest, through the
// run_benchmarks_trend index, so no sample is read.
func (s *Store) Trend(ctx context.Context, q model.TrendQuery) ([]model.TrendSeries, error) {
	if _, err := path.Match(q.Pattern, ""); err != nil {
		return nil, &model.InputError{Msg: fmt.Sprintf("benchmark pattern %q: %v", q.Pattern, err), Err: err}
	}
	benches, err := s.matchBenchmarks(ctx, q.Suite, q.Pattern)
	if err != nil || len(benches) == 0 {
		return nil, err
	}
	ids := make([]int64, 0, len(benches))
	for id := range benches {
		ids = append(ids, id)
	}
	sql, args := trendSQL(q, ids)
	r := trendReader{benches: benches, series: map[seriesKey]*model.TrendSeries{}, newest: map[seriesKey]time.Time{}}
	err = pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, trendPlanSettings); err != nil {
			return err
		}
		return r.read(ctx, tx, sql, args)
	})
	if err != nil {
		return nil, infra("read trend", err)
	}
	return sortedSeries(r.series), nil
}

// A trendReader gathers the rows of the trend query into series.
type trendReader struct {
	benches map[int64]benchMeta
	series  map[seriesKey]*model.TrendSeries
	newest  map[seriesKey]time.Time // of each series, the start of its newest run so far
}

func (r *trendReader) read(ctx context.Context, tx pgx.Tx, sql string, args []any) error {
	rows, err := tx.Query(ctx, sql, args...)
	if err != nil {
		return err
	}
	var id int64
	var p model.TrendPoint
	_, err = pgx.ForEachRow(rows, []any{&id, &p.Run.ID, &p.Run.Commit, &p.Run.Branch, &p.Run.Testbed,
		&p.Run.StartedAt, &p.Median, &p.CV, &p.N}, func() error {
		b := r.benches[id]
		k := seriesKey{b.key, b.unit}
		se := r.series[k]
		if se == nil {
			se = &model.TrendSeries{Suite: b.key.Suite, Name: b.key.Name, Unit: b.unit}
			r.series[k] = se
		}
		p.Run.StartedAt = p.Run.StartedAt.UTC()
		if se.Better == "" || !p.Run.StartedAt.Before(r.newest[k]) { // the newest run's direction
			se.Better, r.newest[k] = b.better, p.Run.StartedAt
		}
		se.Points = append(se.Points, p)
		return nil
	})
	return err
}

// A seriesKey names a trend series: one benchmark in one unit. Rows of
// benchmarks that differ only in better merge into one series.
type seriesKey struct {
	key  model.Key
	unit string
}

// sortedSeries orders the series by suite, name and unit, and each one's
// points by start time, then run id.
func sortedSeries(series map[seriesKey]*model.TrendSeries) []model.TrendSeries {
	out := make([]model.TrendSeries, 0, len(series))
	for _, se := range series {
		slices.SortFunc(se.Points, func(a, b model.TrendPoint) int {
			return cmp.Or(a.Run.StartedAt.Compare(b.Run.StartedAt), cmp.Compare(a.Run.ID, b.Run.ID))
		})
		out = append(out, *se)
	}
	slices.SortFunc(out, func(a, b model.TrendSeries) int {
		return cmp.Or(cmp.Compare(a.Suite, b.Suite), cmp.Compare(a.Name, b.Name), cmp.Compare(a.Unit, b.Unit))
	})
	return out
}

// trendPlanSettings are set (for its transaction only) before the trend
// query. Without it the planner puts a Memoize node over the per-point run
// lookup, which never hits (each point is another run) and doubled the
// query's time: 48-57 ms against 26-32 ms for 10,000 points (pgbench,
// docs/speed.md "Third pass: Postgres").
const trendPlanSettings = "set local enable_memoize = off"

// trendSQL builds the trend query for q over benchmark ids, with only the
// filters q sets, so each form gets its own plan. The rows are unordered:
// sorting them in Go costs far less than a sort node in the server.
//
// It reads only the rows of the answer: the benchmarks' points through the
// run_benchmarks_trend index, then each point's run through runs_pkey. The
// run lookup is a lateral subquery behind "offset 0", which the planner
// cannot flatten into a hash join; a hash join would read every row of runs,
// a cost that grows with the whole history rather than with the answer
// (docs/database.md shows both plans).
func trendSQL(q model.TrendQuery, ids []int64) (string, []any) {
	args := []any{ids}
	where := []string{"rb.benchmark_id = any($1)", "rb.n > 0"}
	add := func(cond string, v any) {
		args = append(args, v)
		where = append(where, strings.ReplaceAll(cond, "?", fmt.Sprintf("$%d", len(args))))
	}
	if !q.Since.IsZero() {
		add("r.started_at >= ?", q.Since)
	}
	if q.Repo != "" {
		add("r.repo = ?", q.Repo)
	}
	if q.Branch != "" {
		add("r.branch = ? and r.baseline_eligible", q.Branch)
	}
	if q.Testbed != "" {
		add("t.label = ?", q.Testbed)
	}
	// The filters stay outside the subquery: behind "offset 0" the planner
	// cannot push them in, so it never trades the primary-key probe for a
	// scan of runs_started_at per point.
	return `
		select rb.benchmark_id, r.id, r.commit, r.branch, t.label, r.started_at, rb.median, rb.cv, rb.n
		from run_benchmarks rb
		cross join lateral (
			select r.id, r.commit, r.branch, r.repo, r.baseline_eligible, r.testbed_id, r.started_at
			from runs r where r.pk = rb.run_pk offset 0) r
		join testbeds t on t.id = r.testbed_id
		where ` + strings.Join(where, " and "), args
}

// A benchMeta describes a benchmarks row.
type benchMeta struct {
	key    model.Key
	unit   string
	better model.Better
}

// matchBenchmarks returns the benchmarks rows in suite (any when "") whose
// name matches the glob pattern (model.MatchGlob; any when ""), by id. The pattern's
// literal prefix narrows the scan through benchmarks_name.
func (s *Store) matchBenchmarks(ctx context.Context, suite, pattern string) (map[int64]benchMeta, error) {
	prefix := pattern
	if i := strings.IndexAny(pattern, `*?[\`); i >= 0 {
		prefix = pattern[:i]
	}
	like := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(prefix) + "%"
	rows, err := s.pool.Query(ctx, `
		select id, suite, name, unit, better from benchmarks
		where ($1 = '' or suite = $1) and name like $2`, suite, like)
	if err != nil {
		return nil, infra("match benchmarks", err)
	}
	out := map[int64]benchMeta{}
	var id int64
	var m benchMeta
	_, err = pgx.ForEachRow(rows, []any{&id, &m.key.Suite, &m.key.Name, &m.unit, &m.better}, func() error {
		if model.MatchGlob(pattern, m.key.Name) {
			out[id] = m
		}
		return nil
	})
	if err != nil {
		return nil, infra("match benchmarks", err)
	}
	return out, nil
}

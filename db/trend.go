package db

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/perfgate/perfgate/tracker/model"
)

// Trend returns one series per benchmark (suite and name) matching q, one
// point per run with samples, oldest first; series sorted by suite, then
// name. Points come from the medians and CVs computed at ingest, through
// the run_benchmarks_trend index, so no sample is read.
func (s *Store) Trend(ctx context.Context, q model.TrendQuery) ([]model.TrendSeries, error) {
	if _, err := path.Match(q.Pattern, ""); err != nil {
		return nil, &model.InputError{Msg: fmt.Sprintf("benchmark pattern %q: %v", q.Pattern, err), Err: err}
	}
	ids, err := s.matchBenchmarks(ctx, q.Suite, q.Pattern)
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	sql, args := trendSQL(q, ids)
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, infra("read trend", err)
	}
	var out []model.TrendSeries
	var suite, name, unit string
	var better model.Better
	var p model.TrendPoint
	_, err = pgx.ForEachRow(rows, []any{&suite, &name, &unit, &better, &p.Run.ID, &p.Run.Commit,
		&p.Run.Branch, &p.Run.Testbed, &p.Run.StartedAt, &p.Median, &p.CV, &p.N}, func() error {
		if n := len(out); n == 0 || out[n-1].Suite != suite || out[n-1].Name != name {
			out = append(out, model.TrendSeries{Suite: suite, Name: name})
		}
		se := &out[len(out)-1]
		se.Unit, se.Better = unit, better // the newest run's, as points are oldest first
		p.Run.StartedAt = p.Run.StartedAt.UTC()
		se.Points = append(se.Points, p)
		return nil
	})
	if err != nil {
		return nil, infra("read trend", err)
	}
	return out, nil
}

// trendSQL builds the trend query for q over benchmark ids, with only the
// filters q sets, so each form gets its own plan.
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
	return `
		select b.suite, b.name, b.unit, b.better, r.id, r.commit, r.branch, t.label, r.started_at,
		       rb.median, rb.cv, rb.n
		from run_benchmarks rb
		join benchmarks b on b.id = rb.benchmark_id
		join runs r on r.pk = rb.run_pk
		join testbeds t on t.id = r.testbed_id
		where ` + strings.Join(where, " and ") + `
		order by b.suite, b.name, r.started_at, r.id`, args
}

// matchBenchmarks returns the ids of the benchmarks rows in suite (any when
// "") whose name matches the path.Match pattern (any when ""). The
// pattern's literal prefix narrows the scan through benchmarks_name.
func (s *Store) matchBenchmarks(ctx context.Context, suite, pattern string) ([]int64, error) {
	prefix := pattern
	if i := strings.IndexAny(pattern, `*?[\`); i >= 0 {
		prefix = pattern[:i]
	}
	like := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(prefix) + "%"
	rows, err := s.pool.Query(ctx, `
		select id, name from benchmarks where ($1 = '' or suite = $1) and name like $2`, suite, like)
	if err != nil {
		return nil, infra("match benchmarks", err)
	}
	ids := []int64{}
	var id int64
	var name string
	_, err = pgx.ForEachRow(rows, []any{&id, &name}, func() error {
		if ok, _ := path.Match(pattern, name); pattern == "" || ok {
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil {
		return nil, infra("match benchmarks", err)
	}
	return ids, nil
}

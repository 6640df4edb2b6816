package db

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/perfgate/perfgate/tracker/model"
)

// TestTrendPlanReadsOnlyItsAnswer: in a history of 5,000 runs of which 500
// hold the benchmark, every form of the trend query reads runs through
// runs_pkey (one probe per point, no Memoize over it) and never scans runs
// whole: a plan whose cost grows with the history, not the answer, fails
// (EXPLAIN, not timing).
func TestTrendPlanReadsOnlyItsAnswer(t *testing.T) {
	s, u := migratedStore(t)
	ctx := context.Background()
	conn, err := connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, sql := range []string{
		`insert into testbeds (label) values ('gpu-1'), ('gpu-2')`,
		`insert into benchmarks (suite, name, unit, better) select 's', 'b' || g, 'ns', 'lower' from generate_series(0, 9) g`,
		`insert into runs (id, content_sha256, repo, commit, branch, pr, event, testbed_id, started_at, status)
			select 'r' || i, '\x00', 'a/b', 'c', case when i % 2 = 0 then 'main' else 'dev' end, null, 'push',
			       (select min(id) from testbeds) + i % 2, timestamptz '2026-01-01' + i * interval '1 hour', 'ok'
			from generate_series(1, 5000) i`,
		`insert into run_benchmarks (run_pk, benchmark_id, ord, n, median, cv)
			select r.pk, b.id, 0, 5, 1, 0 from runs r join benchmarks b on b.name = 'b' || (r.pk % 10)`,
		`analyze`,
	} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%v\n%s", err, sql)
		}
	}
	benches, err := s.matchBenchmarks(ctx, "s", "b3")
	if err != nil || len(benches) != 1 {
		t.Fatalf("matchBenchmarks = %v, %v", benches, err)
	}
	var ids []int64
	for id := range benches {
		ids = append(ids, id)
	}
	var cutoff time.Time
	if err := conn.QueryRow(ctx, "select max(started_at) from runs").Scan(&cutoff); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		q    model.TrendQuery
	}{
		{"all runs", model.TrendQuery{}},
		{"branch", model.TrendQuery{Branch: "main"}},
		{"repo, branch and testbed", model.TrendQuery{Repo: "a/b", Branch: "main", Testbed: "gpu-1"}},
		{"since: a few runs", model.TrendQuery{Since: cutoff.Add(-time.Hour)}},
		{"since: none", model.TrendQuery{Since: cutoff.AddDate(1, 0, 0)}},
		{"since: all", model.TrendQuery{Since: cutoff.AddDate(-1, 0, 0)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sql, args := trendSQL(tc.q, ids)
			var plan []map[string]any
			err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
				if _, err := tx.Exec(ctx, trendPlanSettings); err != nil {
					return err
				}
				return tx.QueryRow(ctx, "explain (format json) "+sql, args...).Scan(&plan)
			})
			if err != nil {
				t.Fatal(err)
			}
			nodes := planNodes(plan[0]["Plan"].(map[string]any))
			text, _ := json.Marshal(plan)
			for _, n := range nodes {
				if n["Relation Name"] == "runs" && (n["Node Type"] != "Index Scan" || n["Index Name"] != "runs_pkey") {
					t.Errorf("runs read by a %s of %v, not by runs_pkey:\n%s", n["Node Type"], n["Index Name"], text)
				}
				if n["Relation Name"] == "run_benchmarks" && n["Node Type"] == "Seq Scan" {
					t.Errorf("run_benchmarks read whole:\n%s", text)
				}
				if n["Node Type"] == "Memoize" {
					t.Errorf("a Memoize node, which never hits here (trendPlanSettings):\n%s", text)
				}
			}
		})
	}
}

// planNodes flattens an EXPLAIN (FORMAT JSON) plan tree.
func planNodes(n map[string]any) []map[string]any {
	out := []map[string]any{n}
	if kids, ok := n["Plans"].([]any); ok {
		for _, k := range kids {
			out = append(out, planNodes(k.(map[string]any))...)
		}
	}
	return out
}

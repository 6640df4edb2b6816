package db

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/db/dbtest"
	"github.com/perfgate/perfgate/tracker/model"
)

// The speed targets of docs/database.md, checked with go test -bench (never
// timed tests):
//
//	go test ./db -run '^$' -bench . -benchtime 10x
//
// BenchmarkIngest records runs of 500 benchmarks × 2,000 samples (1M
// samples); BenchmarkHistory seeds 10,000 runs of 500 benchmarks (with
// generate_series, in about a minute) and times the baseline query of a
// 500-benchmark PR (K = 3 runs, and K = 3 jobs of 4 shards) and the trend
// of one benchmark. PERFGATE_BENCH_KEEP=1
// keeps the seeded database (perfgate_bench_history) for EXPLAIN ANALYZE
// and for the next run.

func BenchmarkIngest(b *testing.B) {
	s, _ := migratedStore(b)
	ctx := context.Background()
	start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	runs := make([]*model.Results, b.N)
	for i := range runs {
		runs[i] = syntheticRun(fmt.Sprintf("ingest-%d", i), 500, 2000, start.Add(time.Duration(i)*time.Hour))
	}
	b.ResetTimer()
	for i := range b.N {
		if out, err := s.Record(ctx, runs[i]); err != nil || out != model.Recorded {
			b.Fatalf("Record: %v, %v", out, err)
		}
	}
	b.ReportMetric(float64(b.N)*1e6/b.Elapsed().Seconds(), "samples/s")
}

const (
	historyRuns       = 10000
	historyBenchmarks = 500
	historySamples    = 20 // per benchmark per run
)

func BenchmarkHistory(b *testing.B) {
	ctx := context.Background()
	u, seeded := historyDatabase(b)
	if !seeded {
		if _, err := Migrate(ctx, u, nil); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		seedHistory(b, u)
		b.Logf("seeded %d runs × %d benchmarks × %d samples in %v", historyRuns, historyBenchmarks, historySamples, time.Since(start).Round(time.Second))
	}
	s, err := Open(ctx, u)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	fp := model.Fingerprint{Testbed: "gpu-h100-1", GPU: "NVIDIA H100 80GB HBM3", DriverMajor: "580", CUDA: "13.0"}
	b.Run("Baseline500x3", func(b *testing.B) {
		q := model.BaselineQuery{Repo: "acme/kernels", Branch: "main", Testbed: fp, Jobs: 3, Exclude: []model.JobKey{{Run: "pr-candidate"}}}
		for range b.N {
			base, err := s.Baseline(ctx, q)
			if err != nil || len(base.Runs) != 3 || len(base.Runs[2].Benchmarks) != historyBenchmarks || len(base.Incomparable) == 0 {
				b.Fatalf("Baseline = %d runs, %v", len(base.Runs), err)
			}
		}
	})
	b.Run("Baseline500x3Sharded", func(b *testing.B) {
		// Three 4-shard jobs of the feature branch (second testbed): 12 runs.
		fp2 := fp
		fp2.Testbed = "gpu-h100-2"
		q := model.BaselineQuery{Repo: "acme/kernels", Branch: "feature", Testbed: fp2, Jobs: 3, Exclude: []model.JobKey{{Run: "pr-candidate"}}}
		for range b.N {
			base, err := s.Baseline(ctx, q)
			if err != nil || len(base.Runs) != 12 || base.Runs[11].Run.Group != base.Runs[8].Run.Group {
				b.Fatalf("Baseline = %d runs, %v", len(base.Runs), err)
			}
		}
	})
	for _, c := range []struct {
		name   string
		q      model.TrendQuery
		points int
	}{
		{"TrendAllRuns", model.TrendQuery{Pattern: "kernel-0250/n=1048576"}, historyRuns},
		{"TrendMain", model.TrendQuery{Repo: "acme/kernels", Pattern: "kernel-0250/n=1048576", Branch: "main", Testbed: "gpu-h100-1"}, 0},
	} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				se, err := s.Trend(ctx, c.q)
				if err != nil || len(se) != 1 || (c.points > 0 && len(se[0].Points) != c.points) {
					b.Fatalf("Trend = %d series, %v", len(se), err)
				}
			}
		})
	}
}

// seedHistory fills the database with historyRuns runs in one pass of SQL:
// runs one an hour over two H100 testbeds; 4 in 10 main pushes, 5 pull
// requests, 1 a feature branch; every 20th a main run on the first testbed
// with an older driver (passed over as incomparable). The feature pushes
// are sharded jobs: every four in a row (80 hours) share a run group. Each run holds every
// benchmark with its samples. Foreign-key triggers are off for the load
// (session_replication_role), as a bulk restore would have them.
func seedHistory(b *testing.B, u string) {
	ctx := context.Background()
	conn, err := connect(ctx, u)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(ctx)
	samples := make([]string, historySamples)
	for i := range samples {
		samples[i] = fmt.Sprint(1000 + (i*37)%11)
	}
	for _, sql := range []string{
		"set session_replication_role = replica",
		`insert into testbeds (label, gpu, driver, cuda, nvrtc) values
			('gpu-h100-1', 'NVIDIA H100 80GB HBM3', '580.95.05', '13.0', '13.0'),
			('gpu-h100-2', 'NVIDIA H100 80GB HBM3', '580.95.05', '13.0', '13.0'),
			('gpu-h100-1', 'NVIDIA H100 80GB HBM3', '570.172.08', '13.0', '13.0')`,
		fmt.Sprintf(`insert into benchmarks (suite, name, unit, better, params)
			select 'synthetic', format('kernel-%%s/n=1048576', lpad(g::text, 4, '0')), 'ns', 'lower', '{"n": "1048576"}'
			from generate_series(0, %d) g`, historyBenchmarks-1),
		fmt.Sprintf(`insert into runs (id, content_sha256, repo, commit, branch, pr, event, testbed_id, started_at, run_group, env, status)
			select format('hist-%%s', i), decode(md5(i::text), 'hex'), 'acme/kernels', md5(i::text) || '01234567',
			       case when i %% 10 < 4 or i %% 20 = 19 then 'main' when i %% 10 < 9 then 'pr-branch' else 'feature' end,
			       case when i %% 10 between 4 and 8 and i %% 20 <> 19 then i end,
			       case when i %% 10 between 4 and 8 and i %% 20 <> 19 then 'pull_request' else 'push' end,
			       case when i %% 20 = 19 then 3 else 1 + i %% 2 end,
			       timestamptz '2025-01-01 00:00Z' + i * interval '1 hour',
			       case when i %% 20 = 9 then format('feature-job-%%s', i / 80) end,
			       '{"gpu": "NVIDIA H100 80GB HBM3", "driver": "580.95.05", "cuda": "13.0"}', 'ok'
			from generate_series(1, %d) i`, historyRuns),
		fmt.Sprintf(`insert into run_benchmarks (run_pk, benchmark_id, ord, n, median, cv, vals)
			select r.pk, b.id, b.id - 1, %d, 1000 + b.id, 0.004, '{%s}' from runs r cross join benchmarks b`,
			historySamples, strings.Join(samples, ",")),
		"reset session_replication_role",
		"vacuum analyze",
	} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			b.Fatalf("seed: %v\n%s", err, sql)
		}
	}
}

// historyDatabase is a fresh database for BenchmarkHistory, dropped at the
// end; with PERFGATE_BENCH_KEEP=1 it is perfgate_bench_history instead,
// kept for EXPLAIN ANALYZE and reused (seeded is true) by the next run
// when it holds the whole history at this schema version.
func historyDatabase(b *testing.B) (url string, seeded bool) {
	if os.Getenv("PERFGATE_BENCH_KEEP") != "1" {
		return freshDatabase(b), false
	}
	const name = "perfgate_bench_history"
	ctx := context.Background()
	url = dbtest.WithDatabase(b, serverURL(b), name)
	if s, err := Open(ctx, url); err == nil {
		var n int
		err = s.pool.QueryRow(ctx, "select count(*) from runs").Scan(&n)
		s.Close()
		if err == nil && n == historyRuns {
			b.Logf("reusing the seeded database %s", name)
			return url, true
		}
	}
	conn, err := connect(ctx, serverURL(b))
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, sql := range []string{"drop database if exists " + name + " with (force)", "create database " + name} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("the seeded database is kept: %s", name)
	return url, false
}

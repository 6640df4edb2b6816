package db

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

// TestConcurrentWritersAndMigrations has 50 writers, each its own process
// as far as the server knows (its own one-connection pool), record
// pull-request and feature-branch runs on two testbeds while migrators run
// perfgate migrate over and over. Every writer adds benchmarks in its own
// random order, some new to the database, so the shared benchmark rows are
// contended. It checks: no error of any kind (deadlocks included, and the
// server's deadlock counter stays 0), no run lost or partial, and the main
// baselines exactly as before.
//
// It runs with -short too (6 s under -race at load 9): it is about
// concurrency, so .ci/run's race-detector step must run it.
func TestConcurrentWritersAndMigrations(t *testing.T) {
	s, u := migratedStore(t)
	ctx := context.Background()
	start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	testbeds := []string{"gpu-h100-1", "gpu-h100-2"}
	for i := range 6 { // the main history: 3 runs per testbed
		r := syntheticRun(fmt.Sprintf("main-%d", i), 20, 30, start.Add(time.Duration(i)*time.Hour))
		r.Run.Testbed = testbeds[i%2]
		if _, err := s.Record(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	before := baselines(t, s, testbeds)
	deadlocksBefore := deadlocks(t, s)

	const writers, runsEach, migrators = 50, 4, 3
	var recorded atomic.Int64
	errs := make(chan error, writers*runsEach+migrators*100)
	stop := make(chan struct{})
	var wg, mg sync.WaitGroup
	for m := range migrators {
		mg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := Migrate(ctx, u, nil); err != nil {
					errs <- fmt.Errorf("migrator %d, pass %d: %w", m, i, err)
					return
				}
			}
		})
	}
	for w := range writers {
		wg.Go(func() { recorded.Add(int64(writeRuns(ctx, u, w, runsEach, testbeds, start, errs))) })
	}
	wg.Wait()
	close(stop)
	mg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := recorded.Load(); got != writers*runsEach {
		t.Errorf("%d runs recorded, want %d", got, writers*runsEach)
	}
	assertComplete(t, s, 6+writers*runsEach)
	if d := deadlocks(t, s) - deadlocksBefore; d != 0 {
		t.Errorf("the server counted %d deadlocks", d)
	}
	if after := baselines(t, s, testbeds); !reflect.DeepEqual(before, after) {
		t.Errorf("baselines changed under PR and feature-branch runs:\nbefore %v\n after %v", before, after)
	}
}

// writeRuns is one writer: its own store, n runs, each either a pull
// request on main or a feature-branch push, newer than all of main.
func writeRuns(ctx context.Context, u string, w, n int, testbeds []string, start time.Time, errs chan<- error) int {
	st, err := Open(ctx, withParam(u, "pool_max_conns=1"))
	if err != nil {
		errs <- fmt.Errorf("writer %d: %w", w, err)
		return 0
	}
	defer st.Close()
	rng := rand.New(rand.NewPCG(uint64(w), 1))
	ok := 0
	for i := range n {
		r := syntheticRun(fmt.Sprintf("w%02d-%d", w, i), 20, 30, start.Add(time.Duration(100+w*n+i)*time.Minute))
		r.Run.Testbed = testbeds[rng.IntN(2)]
		if i%2 == 0 {
			r.Run.Event, r.Run.PR = model.EventPullRequest, 100+w
		} else {
			r.Run.Branch = fmt.Sprintf("feature/w%02d", w)
		}
		// A benchmark of this writer's own, twenty that every writer's i-th
		// run adds (new to the database, so writers race to insert them),
		// and all in a shuffled order.
		r.Benchmarks = append(r.Benchmarks, model.Benchmark{Suite: "own", Name: fmt.Sprintf("w%02d", w),
			Unit: "ns", Better: model.Lower, Samples: []float64{1, 2, 3}})
		for k := range 20 {
			r.Benchmarks = append(r.Benchmarks, model.Benchmark{Suite: "fresh", Name: fmt.Sprintf("run%d-%d", i, k),
				Unit: "ns", Better: model.Lower, Samples: []float64{4, 5, 6}})
		}
		rng.Shuffle(len(r.Benchmarks), func(a, b int) { r.Benchmarks[a], r.Benchmarks[b] = r.Benchmarks[b], r.Benchmarks[a] })
		if out, err := st.Record(ctx, r); err != nil || out != model.Recorded {
			errs <- fmt.Errorf("writer %d, run %s: %v, %w", w, r.Run.ID, out, err)
			continue
		}
		ok++
	}
	return ok
}

// baselines returns the IDs and contents of each testbed's main baseline.
func baselines(t *testing.T, s *Store, testbeds []string) map[string][]*model.Results {
	t.Helper()
	out := map[string][]*model.Results{}
	for _, tb := range testbeds {
		fp := model.Fingerprint{Testbed: tb, GPU: "NVIDIA H100 80GB HBM3", DriverMajor: "580", CUDA: "13.0"}
		b, err := s.Baseline(context.Background(), model.BaselineQuery{Repo: "acme/kernels", Branch: "main", Testbed: fp, Jobs: 5})
		if err != nil {
			t.Fatal(err)
		}
		out[tb] = b.Runs
	}
	return out
}

// assertComplete checks that the database holds runs runs, each whole.
func assertComplete(t *testing.T, s *Store, runs int) {
	t.Helper()
	var n, partial int
	err := s.pool.QueryRow(context.Background(), `
		select count(*), count(*) filter (where nb <> expected or ns <> expected)
		from (select r.pk,
		             (select count(*) from run_benchmarks rb where rb.run_pk = r.pk) as nb,
		             (select count(*) from samples sm where sm.run_pk = r.pk) as ns,
		             case when r.id like 'main-%' then 20 else 41 end as expected
		      from runs r) x`).Scan(&n, &partial)
	if err != nil {
		t.Fatal(err)
	}
	if n != runs || partial != 0 {
		t.Errorf("%d runs stored (%d incomplete), want %d, all complete", n, partial, runs)
	}
}

// deadlocks reads the server's deadlock count for this database.
func deadlocks(t *testing.T, s *Store) int64 {
	t.Helper()
	var n int64
	if err := s.pool.QueryRow(context.Background(),
		"select deadlocks from pg_stat_database where datname = current_database()").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// withParam adds a key=value setting to a database URL or DSN.
func withParam(u, kv string) string {
	switch {
	case !strings.Contains(u, "://"):
		return u + " " + kv
	case strings.Contains(u, "?"):
		return u + "&" + kv
	}
	return u + "?" + kv
}

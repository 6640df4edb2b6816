package db

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
	"github.com/perfgate/perfgate/tracker/storetest"
)

// TestRecordSourceStoresWhatRecordStores records the same runs from memory
// (Record) into one database and from their results files, read a
// benchmark at a time (RecordSource), into another: every row of runs,
// benchmarks and run_benchmarks (samples included) is the same, md5 for
// md5. The runs have benchmarks out of key order, one without samples, one
// whose params differ from its benchmark row's, and a second run that
// reuses the first's benchmark rows.
func TestRecordSourceStoresWhatRecordStores(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	mem, _ := migratedStore(t)
	file, _ := migratedStore(t)
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for k, r := range []*model.Results{syntheticRun("a", 40, 30, at), syntheticRun("b", 50, 7, at.Add(time.Hour))} {
		slices.Reverse(r.Benchmarks[10:])
		r.Benchmarks[3].Samples, r.Benchmarks[3].Error = []float64{}, "failed"
		r.Benchmarks[5].Params = map[string]string{"n": "7"}
		r.Benchmarks[6].Metrics, r.Benchmarks[6].Info = map[string]float64{"gbps": 1.5 + float64(k)}, map[string]string{"mode": "cold"}
		if out, err := mem.Record(ctx, r); err != nil || out != model.Recorded {
			t.Fatalf("Record = %v, %v", out, err)
		}
		src := storetest.SourceFile(t, r)
		if out, err := file.RecordSource(ctx, src); err != nil || out != model.Recorded {
			t.Fatalf("RecordSource = %v, %v", out, err)
		}
	}
	for _, table := range []string{"runs", "benchmarks", "run_benchmarks", "testbeds"} {
		rows := "select * from " + table
		if table == "runs" { // all but recorded_at, the time of recording
			rows = "select pk, id, content_sha256, repo, commit, branch, pr, event, testbed_id, started_at, run_group, env, status, baseline_eligible from runs"
		}
		q := "select count(*), md5(string_agg(md5(t::text), ',' order by t::text)) from (" + rows + ") t"
		var n1, n2 int
		var h1, h2 string
		if err := mem.pool.QueryRow(ctx, q).Scan(&n1, &h1); err != nil {
			t.Fatal(err)
		}
		if err := file.pool.QueryRow(ctx, q).Scan(&n2, &h2); err != nil {
			t.Fatal(err)
		}
		if n1 == 0 || n1 != n2 || h1 != h2 {
			t.Errorf("%s: %d rows (md5 %s) from files, %d (md5 %s) from memory", table, n2, h2, n1, h1)
		}
	}
}

// TestRecordSourceFileChanged: a results file changed between its check
// and the COPY of its samples is an input error (never spooled for a
// retry), and nothing of the run is stored.
func TestRecordSourceFileChanged(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := migratedStore(t)
	r := syntheticRun("changed", 20, 5, time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	path := filepath.Join(t.TempDir(), "run.json")
	if err := resultsjson.WriteFile(path, r); err != nil {
		t.Fatal(err)
	}
	src, err := resultsjson.OpenSource(path)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), "kernel-0019", "kernel-0099", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := s.RecordSource(ctx, src); !model.IsInputError(err) || !strings.Contains(err.Error(), "changed") {
		t.Fatalf("RecordSource = %v, %v; want an input error saying the file changed", out, err)
	}
	var n int
	if err := s.pool.QueryRow(ctx, "select count(*) from runs").Scan(&n); err != nil || n != 0 {
		t.Errorf("%d runs stored (%v), want none", n, err)
	}
}

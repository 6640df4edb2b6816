package filestore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

var t0 = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

// run builds a small main-branch push run.
func run(id string, hour int) *model.Results {
	return &model.Results{
		Schema: model.Schema,
		Run: model.Run{ID: id, Repo: "acme/kernels", Commit: fmt.Sprintf("%040x", hour+1), Branch: "main",
			Event: model.EventPush, Testbed: "gpu-h100-1", StartedAt: t0.Add(time.Duration(hour) * time.Hour),
			Env: map[string]string{model.EnvGPU: "NVIDIA H100 80GB HBM3", model.EnvDriver: "580.95.05", model.EnvCUDA: "13.0"}},
		Benchmarks: []model.Benchmark{{Suite: "memory", Name: "copy/n=1024", Unit: "ns", Better: model.Lower,
			Samples: []float64{10, 11, 12, 10.5, 11.5}}},
	}
}

func query(k int) model.BaselineQuery {
	return model.BaselineQuery{Repo: "acme/kernels", Branch: "main", Jobs: k,
		Testbed: model.Fingerprint{Testbed: "gpu-h100-1", GPU: "NVIDIA H100 80GB HBM3", DriverMajor: "580", CUDA: "13.0"}}
}

func mustRecord(t testing.TB, s *Store, runs ...*model.Results) {
	t.Helper()
	for _, r := range runs {
		if _, err := s.Record(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
}

func usedIDs(t *testing.T, s *Store, k int) []string {
	t.Helper()
	b, err := s.Baseline(context.Background(), query(k))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range b.Used {
		ids = append(ids, r.ID)
	}
	return ids
}

func TestFileName(t *testing.T) {
	cases := []struct{ id, want string }{
		{"3f2a9c1e-7b1d-4c55-9e0f-2a1b3c4d5e6f", "3f2a9c1e-7b1d-4c55-9e0f-2a1b3c4d5e6f.json"},
		{"run_1.b", "run_1.b.json"},
		{"../../etc/passwd", "_.._etc_passwd~"},
		{".hidden", "hidden~"},
		{"a/b", "a_b~"},
		{"Run-A", "run-a~"}, // macOS: "Run-A.json" and "run-a.json" are one file
	}
	seen := map[string]string{}
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			got := fileName(c.id)
			if got != c.want && !(c.want[len(c.want)-1] == '~' && len(got) == len(c.want)+16+5 && got[:len(c.want)] == c.want) {
				t.Errorf("fileName(%q) = %q, want %q (+ 16 hex digits + .json for hashed names)", c.id, got, c.want)
			}
			if filepath.Base(got) != got || got[0] == '.' {
				t.Errorf("fileName(%q) = %q escapes the runs directory or is hidden", c.id, got)
			}
			if other, dup := seen[got]; dup {
				t.Errorf("%q and %q share the file %q", c.id, other, got)
			}
			seen[got] = c.id
		})
	}
	if fileName("a/b") == fileName("a_b") || fileName("a/b") == fileName("a:b") || fileName("Run-A") == fileName("run-a") {
		t.Error("distinct IDs that sanitise alike share a file")
	}
}

func TestMissingStoreReadsEmpty(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nothing-here")
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if ids := usedIDs(t, s, 3); len(ids) != 0 {
		t.Errorf("baseline of a missing store = %v", ids)
	}
	if res, err := s.Prune(context.Background(), model.PruneQuery{OlderThan: t0, DryRun: true}); err != nil || res.Runs != 0 {
		t.Errorf("dry-run prune of a missing store = %+v, %v", res, err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("reading created the store directory (stat: %v)", err)
	}
}

func TestOpenRejectsAFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(f); !model.IsInputError(err) {
		t.Errorf("Open(a regular file) = %v, want an InputError", err)
	}
}

// TestIndexRepairs damages the index and the runs directory the ways a crash
// or a person can, and checks that queries see the run files as they are.
func TestIndexRepairs(t *testing.T) {
	cases := []struct {
		name   string
		damage func(t *testing.T, s *Store)
		want   []string
	}{
		{"index deleted", func(t *testing.T, s *Store) { os.Remove(s.indexPath()) }, []string{"r2", "r1", "r0"}},
		{"index garbage", func(t *testing.T, s *Store) { os.WriteFile(s.indexPath(), []byte("{not json"), 0o644) }, []string{"r2", "r1", "r0"}},
		{"run file deleted by hand", func(t *testing.T, s *Store) { os.Remove(s.runPath("r2.json")) }, []string{"r1", "r0"}},
		{"run file added behind its back", func(t *testing.T, s *Store) {
			if err := resultsjson.WriteFile(s.runPath("r9.json"), run("r9", 9)); err != nil {
				t.Fatal(err)
			}
		}, []string{"r9", "r2", "r1", "r0"}},
		{"stale temp file", func(t *testing.T, s *Store) { os.WriteFile(s.runPath(".r5.json.tmp123"), []byte("{"), 0o644) }, []string{"r2", "r1", "r0"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, _ := Open(t.TempDir())
			mustRecord(t, s, run("r0", 0), run("r1", 1), run("r2", 2))
			c.damage(t, s)
			if got := usedIDs(t, s, 5); fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("baseline after damage = %v, want %v", got, c.want)
			}
			// A write repairs the stored index for good.
			mustRecord(t, s, run("r0", 0))
			ix, err := s.readIndex()
			if err != nil || len(ix.Runs) != len(c.want) {
				t.Errorf("index after a write: %v runs, err %v; want %d", ix, err, len(c.want))
			}
		})
	}
}

func TestNilSamplesStoredAsEmptyArray(t *testing.T) {
	s, _ := Open(t.TempDir())
	r := run("r0", 0)
	r.Benchmarks = append(r.Benchmarks, model.Benchmark{Suite: "memory", Name: "copy/n=2048", Unit: "ns",
		Better: model.Lower, Error: "out of memory"})
	mustRecord(t, s, r)
	if _, err := resultsjson.Load(s.runPath("r0.json")); err != nil {
		t.Errorf("the stored run file does not load: %v", err)
	}
}

// TestManyProcesses records into one directory from several processes at
// once (this test binary, re-executed), each also re-recording the others'
// runs, and checks that every run is stored exactly once.
func TestManyProcesses(t *testing.T) {
	if dir := os.Getenv("PERFGATE_FILESTORE_CHILD_DIR"); dir != "" {
		child(t, dir)
		return
	}
	dir := t.TempDir()
	const procs = 4
	var wg sync.WaitGroup
	errs := make([]error, procs)
	for p := range procs {
		cmd := exec.Command(os.Args[0], "-test.run=^TestManyProcesses$", "-test.count=1")
		cmd.Env = append(os.Environ(), "PERFGATE_FILESTORE_CHILD_DIR="+dir, "PERFGATE_FILESTORE_CHILD="+strconv.Itoa(p))
		wg.Go(func() {
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[p] = fmt.Errorf("child %d: %v\n%s", p, err, out)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	s, _ := Open(dir)
	if got := usedIDs(t, s, 1000); len(got) != procs*runsPerChild {
		t.Errorf("stored %d runs, want %d", len(got), procs*runsPerChild)
	}
	ix, _, err := s.loadIndex()
	if err != nil || len(ix.Runs) != procs*runsPerChild {
		t.Errorf("index: %d runs, %v", len(ix.Runs), err)
	}
}

const runsPerChild = 15

// child records its own runs and every other child's, so records race on
// the same IDs across processes.
func child(t *testing.T, dir string) {
	me, _ := strconv.Atoi(os.Getenv("PERFGATE_FILESTORE_CHILD"))
	s, _ := Open(dir)
	for i := range runsPerChild {
		for p := range 4 {
			n := ((p+me)%4)*runsPerChild + i
			if _, err := s.Record(context.Background(), run(fmt.Sprintf("run-%03d", n), n)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// BenchmarkBaseline measures a baseline query over 3,000 stored runs.
func BenchmarkBaseline(b *testing.B) {
	s, _ := Open(b.TempDir())
	for i := range 3000 {
		mustRecordFast(b, s, run(fmt.Sprintf("run-%04d", i), i))
	}
	mustRecord(b, s, run("run-0000", 0)) // a write stores the index
	b.ResetTimer()
	for b.Loop() {
		if _, err := s.Baseline(context.Background(), query(3)); err != nil {
			b.Fatal(err)
		}
	}
}

// mustRecordFast writes run files directly (unsynced), to be indexed by the
// next Record: a history of thousands of runs in a second.
func mustRecordFast(t testing.TB, s *Store, r *model.Results) {
	if err := os.MkdirAll(s.runsDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.runPath(fileName(r.Run.ID)), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadOnlyStore(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores directory permissions, so a read-only store cannot be made here")
	}
	dir := t.TempDir()
	s, _ := Open(dir)
	mustRecord(t, s, run("r0", 0), run("r1", 1))
	for _, lockFile := range []bool{true, false} {
		t.Run(fmt.Sprintf("lock file present=%v", lockFile), func(t *testing.T) {
			if !lockFile {
				os.Remove(s.lockPath())
			}
			for _, d := range []string{dir, s.runsDir()} {
				if err := os.Chmod(d, 0o555); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { os.Chmod(d, 0o755) })
			}
			if got := usedIDs(t, s, 5); fmt.Sprint(got) != "[r1 r0]" {
				t.Errorf("baseline of a read-only store = %v, want [r1 r0]", got)
			}
			if _, err := s.Record(context.Background(), run("r2", 2)); !errors.As(err, new(*model.InfraError)) {
				t.Errorf("recording into a read-only store: %v, want an InfraError", err)
			}
		})
	}
}

// TestFailedRecordStoresNothing makes the index unwritable after the run
// file is written: Record fails, and the run must not appear.
func TestFailedRecordStoresNothing(t *testing.T) {
	s, _ := Open(t.TempDir())
	mustRecord(t, s, run("r0", 0))
	// A directory where the index's temporary file would go makes
	// WriteFileAtomic's rename fail, whoever runs the test.
	if err := os.Remove(s.indexPath()); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(s.indexPath(), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Record(context.Background(), run("r1", 1)); err == nil {
		t.Fatal("Record succeeded with an unwritable index")
	}
	if err := os.Remove(s.indexPath()); err != nil {
		t.Fatal(err)
	}
	if got := usedIDs(t, s, 5); fmt.Sprint(got) != "[r0]" {
		t.Errorf("after a failed Record the store holds %v, want [r0]", got)
	}
}

// TestReadsVersion1Store: a store written before index.tsv (index.json and
// indented run files) answers queries, reading only the run files its
// index.json does not describe, and the first write converts it.
func TestReadsVersion1Store(t *testing.T) {
	s, _ := Open(t.TempDir())
	if err := os.MkdirAll(s.runsDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	type v1entry struct {
		File    string    `json:"file"`
		Size    int64     `json:"size"`
		ModTime int64     `json:"mtime_ns"`
		Samples int       `json:"samples"`
		Run     model.Run `json:"run"`
	}
	var v1 struct {
		Version int       `json:"version"`
		Runs    []v1entry `json:"runs"`
	}
	v1.Version = 1
	for i := range 3 {
		r := run(fmt.Sprintf("r%d", i), i)
		path := s.runPath(fileName(r.Run.ID))
		if err := resultsjson.WriteFile(path, r); err != nil { // indented, as version 1 wrote them
			t.Fatal(err)
		}
		fi, _ := os.Stat(path)
		v1.Runs = append(v1.Runs, v1entry{fileName(r.Run.ID), fi.Size(), fi.ModTime().UnixNano(), 5, r.Run})
	}
	data, _ := json.Marshal(v1)
	if err := os.WriteFile(filepath.Join(s.dir, "index.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	// Entries of unchanged files are trusted, not read again: this one says
	// r1 ran on another branch, and the baseline believes it.
	v1.Runs[1].Run.Branch = "elsewhere"
	data, _ = json.Marshal(v1)
	os.WriteFile(filepath.Join(s.dir, "index.json"), data, 0o644)
	if got := usedIDs(t, s, 5); fmt.Sprint(got) != "[r2 r0]" {
		t.Errorf("baseline of a version 1 store = %v, want [r2 r0] (the v1 entries trusted where the files match)", got)
	}
	se, err := s.Trend(context.Background(), model.TrendQuery{Pattern: "copy"})
	if err != nil || len(se) != 1 || len(se[0].Points) != 3 {
		t.Fatalf("trend of a version 1 store: %+v, %v", se, err)
	}
	mustRecord(t, s, run("r3", 3))
	if _, err := os.Stat(filepath.Join(s.dir, "index.json")); !notExist(err) {
		t.Errorf("index.json still there after a write: %v", err)
	}
	if ix, err := s.readIndex(); err != nil || len(ix.Runs) != 4 {
		t.Errorf("index after the first write: %v, %v", ix, err)
	}
}

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/db/filestore"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// histRun builds a run for the history commands' tests: a main push on the
// H100 testbed whose one benchmark is centred on median (30 samples, 0.5%
// spread), started hour hours into the history.
func histRun(id string, hour int, median float64, opts ...func(*model.Results)) *model.Results {
	samples := make([]float64, 30)
	for i := range samples {
		samples[i] = median * (1 + 0.005*float64(i%7-3)/3)
	}
	r := &model.Results{Schema: model.Schema,
		Run: model.Run{ID: id, Repo: "acme/kernels", Commit: fmt.Sprintf("%040x", hour+1), Branch: "main",
			Event: model.EventPush, Testbed: "gpu-h100-1",
			StartedAt: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(hour) * time.Hour),
			Env:       map[string]string{model.EnvGPU: "NVIDIA H100 80GB HBM3", model.EnvDriver: "580.95.05", model.EnvCUDA: "13.0"}},
		Benchmarks: []model.Benchmark{{Suite: "elementwise", Name: "add/dtype=fp32/n=16M/mode=batch",
			Unit: "us", Better: model.Lower, Samples: samples}},
	}
	for _, o := range opts {
		o(r)
	}
	return r
}

// asPR makes a run a pull-request run of a feature branch.
func asPR(r *model.Results) {
	r.Run.Branch, r.Run.Event, r.Run.PR = "feature/x", model.EventPullRequest, 7
}

// writeRuns writes runs as results files in dir and returns their paths.
func writeRuns(t *testing.T, dir string, runs ...*model.Results) []string {
	t.Helper()
	var paths []string
	for _, r := range runs {
		p := filepath.Join(dir, r.Run.ID+".json")
		if err := resultsjson.WriteFile(p, r); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// invoke runs perfgate in-process with only the given environment variables.
func invoke(t *testing.T, vars map[string]string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &cli.Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return vars[k] }}
	code = runEnv(context.Background(), args, e)
	return out.String(), errb.String(), code
}

// storedRuns lists the IDs of the main-branch runs in the store at dir.
func storedRuns(t *testing.T, dir string) []string {
	t.Helper()
	s, err := filestore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Baseline(context.Background(), model.BaselineQuery{Branch: "main", Jobs: 100,
		Testbed: model.Fingerprint{Testbed: "gpu-h100-1"}})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range b.Used {
		ids = append(ids, r.ID)
	}
	return ids
}

func TestRecord(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	files := writeRuns(t, dir, histRun("r1", 1, 100), histRun("r2", 2, 100), histRun("pr", 3, 100, asPR))

	out, errOut, code := invoke(t, nil, "record", "--store", store, files[0], files[1], files[2])
	if code != 0 {
		t.Fatalf("record: exit %d, stderr %s", code, errOut)
	}
	for _, want := range []string{"r1.json: recorded run r1", "r2.json: recorded run r2", "pull request #7: kept for the record, never a baseline"} {
		if !strings.Contains(out, want) {
			t.Errorf("record output lacks %q:\n%s", want, out)
		}
	}
	if got := fmt.Sprint(storedRuns(t, store)); got != "[r2 r1]" {
		t.Errorf("baseline runs stored = %s, want [r2 r1]", got)
	}

	// Again, through PERFGATE_STORE: idempotent.
	out, _, code = invoke(t, map[string]string{"PERFGATE_STORE": store}, "record", files[0])
	if code != 0 || !strings.Contains(out, "already recorded run r1") {
		t.Errorf("re-record: exit %d, output %q; want 0 and 'already recorded'", code, out)
	}
}

func TestRecordRejects(t *testing.T) {
	dir := t.TempDir()
	good := writeRuns(t, dir, histRun("good", 1, 100))[0]
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"schema": "perfgate.results/v1", "run": {"id": ""}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	twin := filepath.Join(dir, "twin.json")
	if err := resultsjson.WriteFile(twin, histRun("good", 1, 120)); err != nil { // same id, other content
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"no files", nil, "at least one results FILE"},
		{"a bad file among good ones", []string{good, bad}, "bad.json"},
		{"a missing file", []string{good, filepath.Join(dir, "missing.json")}, "missing.json"},
		{"one id with two contents", []string{good, twin}, "run good is also in"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			store := filepath.Join(t.TempDir(), "store")
			_, errOut, code := invoke(t, nil, append([]string{"record", "--store", store}, c.args...)...)
			if code != cli.ExitBadInput || !strings.Contains(errOut, c.wantErr) {
				t.Errorf("exit %d, stderr %q; want exit 2 naming %q", code, errOut, c.wantErr)
			}
			if _, err := os.Stat(store); !os.IsNotExist(err) {
				t.Errorf("a rejected record touched the store (stat: %v)", err)
			}
		})
	}
}

func TestRecordConflictWithStored(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	first := writeRuns(t, dir, histRun("r1", 1, 100))[0]
	if _, errOut, code := invoke(t, nil, "record", "--store", store, first); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	other := filepath.Join(t.TempDir(), "r1-again.json")
	if err := resultsjson.WriteFile(other, histRun("r1", 1, 150)); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := invoke(t, nil, "record", "--store", store, other)
	if code != cli.ExitBadInput || !strings.Contains(errOut, "already recorded with different content") {
		t.Errorf("conflicting re-record: exit %d, stderr %q; want exit 2 and the conflict", code, errOut)
	}
}

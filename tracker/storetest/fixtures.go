package storetest

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
)

// epoch is the start of every fixture history. Fixture times are whole
// seconds so that stores with microsecond timestamps round-trip them exactly.
var epoch = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

const (
	fixtureRepo    = "acme/kernels"
	fixtureTestbed = "gpu-h100-1"
)

// h100 is the environment of the default fixture testbed.
func h100() map[string]string {
	return map[string]string{
		model.EnvGPU:    "NVIDIA H100 80GB HBM3",
		model.EnvDriver: "580.95.05",
		model.EnvCUDA:   "13.0",
		model.EnvNVRTC:  "13.0",
		"sm_clock_mhz":  "1980",
	}
}

// fp is the fingerprint of the default fixture testbed.
func fp() model.Fingerprint {
	return model.Fingerprint{Testbed: fixtureTestbed, GPU: "NVIDIA H100 80GB HBM3", DriverMajor: "580", CUDA: "13.0"}
}

// An opt adjusts a fixture run.
type opt func(*model.Results)

// mkRun builds a main-branch push run on the default testbed, started hour
// hours after epoch, with two benchmarks of five samples each.
func mkRun(id string, hour int, opts ...opt) *model.Results {
	sum := sha1.Sum([]byte(id))
	r := &model.Results{
		Schema: model.Schema,
		Run: model.Run{
			ID: id, Repo: fixtureRepo, Commit: hex.EncodeToString(sum[:]), Branch: "main",
			Event: model.EventPush, Testbed: fixtureTestbed,
			StartedAt: epoch.Add(time.Duration(hour) * time.Hour), Env: h100(),
		},
		Benchmarks: []model.Benchmark{
			bench("elementwise", "add/fp32/n=16777216", 100, 101, 99, 100.5, 100.25),
			bench("memory", "copy/n=268435456", 2000, 2010, 1990, 2005, 1995),
		},
	}
	for _, o := range opts {
		o(r)
	}
	return r
}

// bench builds a lower-is-better nanosecond benchmark.
func bench(suite, name string, samples ...float64) model.Benchmark {
	return model.Benchmark{Suite: suite, Name: name, Unit: "ns", Better: model.Lower, Samples: samples}
}

func onBranch(b string) opt   { return func(r *model.Results) { r.Run.Branch = b } }
func inRepo(repo string) opt  { return func(r *model.Results) { r.Run.Repo = repo } }
func onTestbed(tb string) opt { return func(r *model.Results) { r.Run.Testbed = tb } }

// pullRequest makes the run a pull-request run of PR n.
func pullRequest(n int) opt {
	return func(r *model.Results) { r.Run.Event, r.Run.PR = model.EventPullRequest, n }
}

// withEnv sets (or, with v == "", deletes) one env key.
func withEnv(k, v string) opt {
	return func(r *model.Results) {
		if v == "" {
			delete(r.Run.Env, k)
			return
		}
		r.Run.Env[k] = v
	}
}

// noEnv drops the whole env block, as imported CPU-only runs have none.
func noEnv() opt { return func(r *model.Results) { r.Run.Env = nil } }

// withBenchmarks replaces the run's benchmarks.
func withBenchmarks(bs ...model.Benchmark) opt {
	return func(r *model.Results) { r.Benchmarks = bs }
}

// richRun is a run that uses every field of the format.
func richRun(id string, hour int) *model.Results {
	add := bench("elementwise", "add/fp16/n=1048576", 12.5, 12.625, 12.375, 12.5, 12.75, 12.4375)
	add.Params = map[string]string{"dtype": "fp16", "n": "1048576"}
	add.Metrics = map[string]float64{"gbps": 2516.58, "pct_of_copy": 0.83}
	add.Info = map[string]string{"timing": "cuda-events", "stop": "max-samples", "ptx_sha256": "9f2c"}
	tp := model.Benchmark{Suite: "microbatch", Name: "throughput/bs=8", Unit: "items/s",
		Better: model.Higher, Samples: []float64{1.5e6, 1.52e6, 1.49e6}, SummaryOnly: true}
	failed := model.Benchmark{Suite: "mixedops", Name: "softmax/fp32/n=4096", Unit: "ns",
		Better: model.Lower, Error: "launch failed: too many resources requested"}
	return mkRun(id, hour, withBenchmarks(add, tp, failed), func(r *model.Results) {
		r.Run.Group = "shard-group-7"
		r.Run.Env["hostname"] = "runner-17"
	})
}

// clone deep-copies r through JSON, as a second process reading the same
// file would see it.
func clone(t *testing.T, r *model.Results) *model.Results {
	t.Helper()
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var c model.Results
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	return &c
}

// normalize returns a copy of r in canonical form for comparison
// (model.Results.Canonical): stores may return benchmarks in any order and
// need not tell nil from empty.
func normalize(t *testing.T, r *model.Results) *model.Results { return clone(t, r).Canonical() }

// assertSameResults fails unless got holds the same run as want.
func assertSameResults(t *testing.T, got, want *model.Results) {
	t.Helper()
	g, w := normalize(t, got), normalize(t, want)
	if !g.Run.StartedAt.Equal(w.Run.StartedAt) {
		t.Errorf("run %s: started_at = %v, want %v", want.Run.ID, g.Run.StartedAt, w.Run.StartedAt)
	}
	g.Run.StartedAt = w.Run.StartedAt
	if !reflect.DeepEqual(g, w) {
		gj, _ := json.MarshalIndent(g, "", " ")
		wj, _ := json.MarshalIndent(w, "", " ")
		t.Errorf("run %s did not round-trip\n got: %s\nwant: %s", want.Run.ID, gj, wj)
	}
}

// record records runs, failing the test unless each is newly recorded.
func record(t *testing.T, s history.Store, runs ...*model.Results) {
	t.Helper()
	for _, r := range runs {
		out, err := s.Record(context.Background(), r)
		if err != nil {
			t.Fatalf("Record(%s): %v", r.Run.ID, err)
		}
		if out != model.Recorded {
			t.Fatalf("Record(%s) = %v, want Recorded", r.Run.ID, out)
		}
	}
}

// baseline runs a baseline query, failing the test on error.
func baseline(t *testing.T, s history.Store, q model.BaselineQuery) *model.Baseline {
	t.Helper()
	b, err := s.Baseline(context.Background(), q)
	if err != nil {
		t.Fatalf("Baseline(%+v): %v", q, err)
	}
	return b
}

// mainQuery is a baseline query for main on the default testbed.
func mainQuery(k int) model.BaselineQuery {
	return model.BaselineQuery{Repo: fixtureRepo, Branch: "main", Testbed: fp(), Jobs: k}
}

// usedIDs lists the IDs of the runs a baseline used, checking that Runs and
// Used agree.
func usedIDs(t *testing.T, b *model.Baseline) []string {
	t.Helper()
	if len(b.Runs) != len(b.Used) {
		t.Fatalf("baseline has %d runs but %d refs", len(b.Runs), len(b.Used))
	}
	var ids []string
	for i, r := range b.Runs {
		if b.Used[i] != normalizeRef(r.Run.Ref()) {
			t.Errorf("Used[%d] = %+v, want the ref of Runs[%d] %+v", i, b.Used[i], i, r.Run.Ref())
		}
		ids = append(ids, r.Run.ID)
	}
	return ids
}

func normalizeRef(r model.RunRef) model.RunRef { r.StartedAt = r.StartedAt.UTC(); return r }

// incomparableIDs lists the IDs of the runs a baseline passed over, checking
// that each carries a reason.
func incomparableIDs(t *testing.T, b *model.Baseline) []string {
	t.Helper()
	var ids []string
	for _, ic := range b.Incomparable {
		if ic.Reason == "" {
			t.Errorf("incomparable run %s has no reason", ic.Run.ID)
		}
		ids = append(ids, ic.Run.ID)
	}
	return ids
}

// storedIDs lists every stored run that has at least one benchmark with
// samples, read through an unfiltered trend query.
func storedIDs(t *testing.T, s history.Store) []string {
	t.Helper()
	series, err := s.Trend(context.Background(), model.TrendQuery{})
	if err != nil {
		t.Fatalf("Trend: %v", err)
	}
	set := map[string]bool{}
	for _, se := range series {
		for _, p := range se.Points {
			set[p.Run.ID] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// sorted returns a sorted copy of ids.
func sorted(ids ...string) []string { return slices.Sorted(slices.Values(ids)) }

// inGroup makes the run a shard of the sharded job group.
func inGroup(group string) opt { return func(r *model.Results) { r.Run.Group = group } }

// shard builds shard i of a sharded job: a run of group job, started hour
// hours after epoch, whose one benchmark lives only in this shard.
func shard(job string, i, hour int, opts ...opt) *model.Results {
	id := fmt.Sprintf("%s-s%d", job, i)
	b := bench("sharded", fmt.Sprintf("shard%d/n=1024", i), 10, 11, 12)
	return mkRun(id, hour, append([]opt{withBenchmarks(b), inGroup(job)}, opts...)...)
}

package action

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/perfgate/perfgate/internal/golden"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
)

// syncComments is a Comments safe for concurrent shards. onList, when set,
// runs before each List answers (outside the lock), with the number of
// the call (1, 2, …).
type syncComments struct {
	mu     sync.Mutex
	list   []Comment
	nextID int64
	lists  int
	onList func(call int)
}

func (m *syncComments) List(context.Context, Repo, int) ([]Comment, error) {
	m.mu.Lock()
	m.lists++
	n := m.lists
	m.mu.Unlock()
	if m.onList != nil {
		m.onList(n)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Comment(nil), m.list...), nil
}

func (m *syncComments) Create(_ context.Context, _ Repo, _ int, body string) (Comment, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.nextID++
	c := Comment{ID: 100 + m.nextID, Body: body, Author: me}
	m.list = append(m.list, c)
	return c, nil
}

func (m *syncComments) Update(_ context.Context, _ Repo, id int64, body string) (Comment, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := range m.list {
		if m.list[i].ID == id {
			m.list[i].Body = body
			return m.list[i], nil
		}
	}
	return Comment{}, errors.New("404")
}

func (m *syncComments) Delete(_ context.Context, _ Repo, id int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := range m.list {
		if m.list[i].ID == id {
			m.list = append(m.list[:i], m.list[i+1:]...)
			return nil
		}
	}
	return nil
}

type syncStatuses struct {
	mu  sync.Mutex
	all []Status
}

func (s *syncStatuses) Create(_ context.Context, _ Repo, _ string, st Status) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.all = append(s.all, st)
	return nil
}

func (s *syncStatuses) last() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.all[len(s.all)-1]
}

// memShards is a Store that keeps shard reports and nothing else.
type memShards struct {
	mu      sync.Mutex
	reports map[string]map[int]model.ShardReport
}

var (
	_ Store              = (*memShards)(nil)
	_ history.ShardStore = (*memShards)(nil)
)

func (s *memShards) Baseline(context.Context, model.BaselineQuery) (*model.Baseline, error) {
	return nil, errors.New("not used")
}
func (s *memShards) Record(context.Context, *model.Results) (model.RecordOutcome, error) {
	return 0, errors.New("not used")
}
func (s *memShards) Trend(context.Context, model.TrendQuery) ([]model.TrendSeries, error) {
	return nil, errors.New("not used")
}

func (s *memShards) SaveShard(_ context.Context, r model.ShardReport) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.reports == nil {
		s.reports = map[string]map[int]model.ShardReport{}
	}
	if s.reports[r.Set] == nil {
		s.reports[r.Set] = map[int]model.ShardReport{}
	}
	s.reports[r.Set][r.Shard] = r
	return nil
}

func (s *memShards) Shards(_ context.Context, set string) ([]model.ShardReport, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []model.ShardReport
	for i := range 16 {
		if r, ok := s.reports[set][i]; ok {
			out = append(out, r)
		}
	}
	return out, nil
}

// shardComparison judges a shard that ran benchmarks names on testbed,
// each slower than its baseline by factor (1: unchanged).
func shardComparison(t *testing.T, testbed string, factor float64, names ...string) *compare.Comparison {
	t.Helper()
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	mk := func(id string, f float64) *model.Results {
		r := &model.Results{Schema: model.Schema, Run: model.Run{ID: id, Repo: "o/r", Commit: strings.Repeat("a", 40), Branch: "main",
			Testbed: testbed, StartedAt: at, Env: map[string]string{model.EnvGPU: "NVIDIA " + testbed}}}
		for i, n := range names {
			var s []float64
			for j := range 20 {
				s = append(s, 100*float64(i+1)*f*(1+0.01*math.Sin(float64(j))))
			}
			r.Benchmarks = append(r.Benchmarks, model.Benchmark{Suite: "kernels", Name: n, Unit: "us", Better: model.Lower, Samples: s})
		}
		return r
	}
	c, err := compare.Compare([]*model.Results{mk("base-"+testbed, 1)}, []*model.Results{mk("pr-"+testbed, factor)}, compare.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// shardRun is the run of one shard, posting to comments and statuses.
func shardRun(i, n int, cs Comments, ss Statuses) *run {
	p := &Plan{Kind: KindCheck, Repo: Repo{"o", "r"}, PR: 2, HeadSHA: strings.Repeat("b", 40), FailOnRegression: true,
		RunURL: "https://github.com/o/r/actions/runs/7", Marker: Marker("perfgate", "perfgate")}
	return &run{plan: p, o: RunOptions{Plan: p, Shard: Shard{Index: i, Count: n}, Comment: CommentAlways, Version: "test",
		GitHub: &GitHub{Comments: cs, Statuses: ss, Login: func(context.Context) (string, error) { return me, nil }},
		Stderr: io.Discard}}
}

// TestShardsComment: two GPU-model shards of one pull request. The first
// to finish posts a comment saying it waits for the other and a pending
// status; the second posts the merged verdict, which fails on its
// regression.
func TestShardsComment(t *testing.T) {
	cs, ss, st := &syncComments{}, &syncStatuses{}, &memShards{}
	ctx := context.Background()
	h100 := shardComparison(t, "gpu-h100", 1, "gemm/n=4096", "copy/bytes=1GiB")
	h200 := shardComparison(t, "gpu-h200", 1.25, "gemm/n=4096", "copy/bytes=1GiB")

	if err := shardRun(0, 2, cs, ss).updateGitHubShards(ctx, st, h100); err != nil {
		t.Fatal(err)
	}
	if len(cs.list) != 1 {
		t.Fatalf("%d comments after shard 0, want 1", len(cs.list))
	}
	golden.Check(t, "shards-partial.md", cs.list[0].Body)
	if s := ss.last(); s.State != StatePending || !strings.HasPrefix(s.Description, "1 of 2 shards reported (waiting for shard 1); so far pass") {
		t.Errorf("status after shard 0: %+v, want pending, waiting for shard 1", s)
	}

	if err := shardRun(1, 2, cs, ss).updateGitHubShards(ctx, st, h200); err != nil {
		t.Fatal(err)
	}
	if len(cs.list) != 1 {
		t.Fatalf("%d comments after shard 1, want 1", len(cs.list))
	}
	golden.Check(t, "shards-complete.md", cs.list[0].Body)
	if s := ss.last(); s.State != StateFailure || !strings.HasPrefix(s.Description, "2 of 2 shards reported; fail: 2 regressions, 2 unchanged") {
		t.Errorf("status after shard 1: %+v, want failure for the whole set", s)
	}
}

// TestShardsStalePostLandsLast: shard 0 reads the store before shard 1
// has saved, and its comment update lands after shard 1 posted the
// merged verdict. Reading the store again after posting, shard 0 finds
// shard 1's report and posts the merged verdict again.
func TestShardsStalePostLandsLast(t *testing.T) {
	ss, st := &syncStatuses{}, &memShards{}
	hold, release := make(chan struct{}), make(chan struct{})
	cs := &syncComments{onList: func(call int) {
		if call == 1 { // shard 0's first List: hold it until shard 1 is done
			close(hold)
			<-release
		}
	}}
	ctx := context.Background()
	errs := make(chan error, 1)
	go func() {
		errs <- shardRun(0, 2, cs, ss).updateGitHubShards(ctx, st, shardComparison(t, "gpu-h100", 1, "gemm"))
	}()
	<-hold
	if err := shardRun(1, 2, cs, ss).updateGitHubShards(ctx, st, shardComparison(t, "gpu-h200", 1, "copy")); err != nil {
		t.Fatal(err)
	}
	close(release)
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
	if len(cs.list) != 1 || !strings.Contains(cs.list[0].Body, "all 2 reported") {
		t.Fatalf("comments %+v, want one with both shards", cs.list)
	}
	if s := ss.last(); s.State != StateSuccess || !strings.HasPrefix(s.Description, "2 of 2 shards reported") {
		t.Errorf("last status %+v, want success for both shards", s)
	}
}

// TestShardsAtOnce: three shards finish at the same moment (each lists the
// comments before any creates one); they end with one comment and a
// status holding all three.
func TestShardsAtOnce(t *testing.T) {
	const n = 3
	for trial := range 20 {
		ss, st := &syncStatuses{}, &memShards{}
		var wg sync.WaitGroup
		wg.Add(n)
		cs := &syncComments{onList: func(call int) {
			if call <= n {
				wg.Done()
				wg.Wait()
			}
		}}
		errs := make(chan error, n)
		for i := range n {
			c := shardComparison(t, fmt.Sprintf("gpu-%d", i), 1, fmt.Sprintf("bench%d", i))
			go func() { errs <- shardRun(i, n, cs, ss).updateGitHubShards(context.Background(), st, c) }()
		}
		for range n {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		if len(cs.list) != 1 || !strings.Contains(cs.list[0].Body, "all 3 reported") {
			t.Fatalf("trial %d: comments %+v, want one with all shards", trial, cs.list)
		}
		if s := ss.last(); s.State != StateSuccess || !strings.HasPrefix(s.Description, "3 of 3 shards reported") {
			t.Fatalf("trial %d: last status %+v, want success for all shards", trial, s)
		}
	}
}

// TestMergeShardsOtherCount: the results of an earlier attempt at the same
// commit with another shard count are kept for the benchmarks no current
// shard measured, and give way to a current shard's result.
func TestMergeShardsOtherCount(t *testing.T) {
	old, _ := encodeShard(shardData{Label: "old", Comparison: shardComparison(t, "old", 1, "x", "y")})
	cur, _ := encodeShard(shardData{Label: "gpu-a", Comparison: shardComparison(t, "gpu-a", 1, "y")})
	m, err := MergeShards([]model.ShardReport{{Shard: 0, Shards: 3, Data: old}, {Shard: 1, Shards: 2, Data: cur}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Progress.ShardLine(); got != "1 of 2 shards reported (waiting for shard 0)" {
		t.Errorf("progress %q", got)
	}
	var names []string
	for _, r := range m.Comparison.Results {
		names = append(names, r.Name)
	}
	if len(m.Comparison.Results) != 2 || m.Comparison.Results[0].Name != "x" || m.Comparison.Results[1].Name != "y" ||
		len(m.Progress.Notes) != 1 || !strings.Contains(m.Progress.Notes[0], "1 result(s) come from an earlier attempt at this commit sharded [3] ways") {
		t.Errorf("results %v, notes %q; want x from the earlier attempt, y from shard 1, and a note", names, m.Progress.Notes)
	}
}

// TestShardCountChanged: the first attempt (2 shards) found a regression;
// the re-run is sharded 3 ways, and its first shard to finish measured
// other benchmarks. The regression must stay in the comment and fail the
// status (issue 28, item 9: it was dropped, and the status went pending);
// once a shard of the re-run measures the benchmark again, its result
// counts.
func TestShardCountChanged(t *testing.T) {
	cs, ss, st := &syncComments{}, &syncStatuses{}, &memShards{}
	ctx := context.Background()
	if err := shardRun(0, 2, cs, ss).updateGitHubShards(ctx, st, shardComparison(t, "gpu-h100", 1.25, "gemm")); err != nil {
		t.Fatal(err)
	}
	if err := shardRun(1, 2, cs, ss).updateGitHubShards(ctx, st, shardComparison(t, "gpu-h100", 1, "copy")); err != nil {
		t.Fatal(err)
	}
	if s := ss.last(); s.State != StateFailure {
		t.Fatalf("first attempt: status %+v, want failure", s)
	}
	if err := shardRun(2, 3, cs, ss).updateGitHubShards(ctx, st, shardComparison(t, "gpu-h100", 1, "softmax")); err != nil {
		t.Fatal(err)
	}
	if s := ss.last(); s.State != StateFailure || !strings.Contains(cs.list[0].Body, "gemm") || !strings.Contains(cs.list[0].Body, "earlier attempt") {
		t.Errorf("re-run's first shard: status %+v, comment:\n%s\nwant failure, gemm's regression and a note on the earlier attempt", s, cs.list[0].Body)
	}
	if err := shardRun(0, 3, cs, ss).updateGitHubShards(ctx, st, shardComparison(t, "gpu-h100", 1, "gemm")); err != nil {
		t.Fatal(err)
	}
	if s := ss.last(); s.State != StatePending || !strings.Contains(s.Description, "so far pass") {
		t.Errorf("gemm measured again, unchanged: status %+v, want pending (shard 1 missing), so far pass", s)
	}
}

// TestShardsDamagedReport: a stored report that cannot be decoded (issue
// 28, item 7: it blocked the comment and status of the whole set) counts
// as not reported, with a note saying which shard to re-run; the others'
// verdict is posted.
func TestShardsDamagedReport(t *testing.T) {
	cs, ss, st := &syncComments{}, &syncStatuses{}, &memShards{}
	ctx := context.Background()
	st.SaveShard(ctx, model.ShardReport{Set: ShardSet(shardRun(0, 2, cs, ss).plan), Shard: 1, Shards: 2, Data: []byte("\x00truncated")})
	if err := shardRun(0, 2, cs, ss).updateGitHubShards(ctx, st, shardComparison(t, "gpu-h100", 1.25, "gemm")); err != nil {
		t.Fatalf("a damaged report of another shard blocked the update: %v", err)
	}
	if s := ss.last(); s.State != StateFailure || !strings.HasPrefix(s.Description, "1 of 2 shards reported (waiting for shard 1)") {
		t.Errorf("status %+v, want failure, waiting for shard 1", s)
	}
	if len(cs.list) != 1 || !strings.Contains(cs.list[0].Body, "shard 1 could not be read") {
		t.Errorf("comment does not say shard 1's report could not be read:\n%v", cs.list)
	}
}

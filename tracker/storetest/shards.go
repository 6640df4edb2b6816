package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
)

var shardTests = []contractTest{
	{"SaveAndRead", testShardsSaveAndRead},
	{"Concurrent", testShardsConcurrent},
	{"Pruned", testShardsPruned},
}

func shardsOf(t *testing.T, s history.Store) history.ShardStore {
	t.Helper()
	ss, ok := s.(history.ShardStore)
	if !ok {
		t.Fatalf("%T keeps no shard reports (SaveShard, Shards)", s)
	}
	return ss
}

// testShardsSaveAndRead: reports come back by shard; a shard's second
// report replaces its first; another set's reports are not seen.
func testShardsSaveAndRead(t *testing.T, s history.Store) {
	ss, ctx := shardsOf(t, s), context.Background()
	if got, err := ss.Shards(ctx, "o/r#1@abc job"); err != nil || len(got) != 0 {
		t.Fatalf("Shards of an empty store = %v, %v; want none", got, err)
	}
	start := time.Now().Add(-time.Minute)
	for _, r := range []model.ShardReport{
		{Set: "o/r#1@abc job", Shard: 2, Shards: 3, Data: []byte("two")},
		{Set: "o/r#1@abc job", Shard: 0, Shards: 3, Data: []byte("zero, first")},
		{Set: "o/r#1@abc other", Shard: 1, Shards: 3, Data: []byte("another set")},
		{Set: "o/r#1@abc job", Shard: 0, Shards: 3, Data: []byte{0, 0xff, 'z'}},
	} {
		if err := ss.SaveShard(ctx, r); err != nil {
			t.Fatalf("SaveShard(%d): %v", r.Shard, err)
		}
	}
	got, err := ss.Shards(ctx, "o/r#1@abc job")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"0/3:\x00\xffz", "2/3:two"}
	if len(got) != len(want) {
		t.Fatalf("%d reports, want %d: %+v", len(got), len(want), got)
	}
	for i, r := range got {
		if s := fmt.Sprintf("%d/%d:%s", r.Shard, r.Shards, r.Data); s != want[i] || r.Set != "o/r#1@abc job" || r.RecordedAt.Before(start) {
			t.Errorf("report %d = %q (set %q, at %v), want %q", i, s, r.Set, r.RecordedAt, want[i])
		}
	}
}

// testShardsConcurrent: shards saving at once are all kept.
func testShardsConcurrent(t *testing.T, s history.Store) {
	ss, ctx := shardsOf(t, s), context.Background()
	const n = 8
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := ss.SaveShard(ctx, model.ShardReport{Set: "set", Shard: i, Shards: n, Data: []byte{byte(i)}}); err != nil {
				t.Errorf("SaveShard(%d): %v", i, err)
			}
		}()
	}
	wg.Wait()
	got, err := ss.Shards(ctx, "set")
	if err != nil || len(got) != n {
		t.Fatalf("Shards = %d reports, %v; want %d", len(got), err, n)
	}
}

// testShardsPruned: a prune deletes the shard reports saved before its
// OlderThan and counts them (a dry run only counts); later ones stay
// (issue 28, item 14: no store ever deleted them).
func testShardsPruned(t *testing.T, s history.Store) {
	ss, ctx := shardsOf(t, s), context.Background()
	for i := range 3 {
		if err := ss.SaveShard(ctx, model.ShardReport{Set: fmt.Sprintf("o/r#%d@abc job", i), Shard: 0, Shards: 2, Data: []byte("x")}); err != nil {
			t.Fatal(err)
		}
	}
	q := func(olderThan time.Time, dry bool) model.PruneQuery {
		return model.PruneQuery{OlderThan: olderThan, BaselineBranch: "main", KeepBaseline: 1, DryRun: dry}
	}
	left := func() int {
		n := 0
		for i := range 3 {
			got, err := ss.Shards(ctx, fmt.Sprintf("o/r#%d@abc job", i))
			if err != nil {
				t.Fatal(err)
			}
			n += len(got)
		}
		return n
	}
	past, future := time.Now().Add(-time.Hour), time.Now().Add(time.Hour)
	if res := prune(t, s, q(past, false)); res.ShardReports != 0 || left() != 3 {
		t.Errorf("prune of older than an hour ago: %+v, %d left; want 0 deleted, 3 left", res, left())
	}
	if res := prune(t, s, q(future, true)); res.ShardReports != 3 || left() != 3 {
		t.Errorf("dry run: %+v, %d left; want 3 counted, 3 left", res, left())
	}
	if res := prune(t, s, q(future, false)); res.ShardReports != 3 || left() != 0 {
		t.Errorf("prune: %+v, %d left; want 3 deleted, none left", res, left())
	}
}

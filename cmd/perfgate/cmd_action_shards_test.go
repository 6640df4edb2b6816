package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/fakegithub"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// TestActionShards runs the two shards of a sharded pull-request job at
// once against one store, both listing the comments before either
// creates one: shard 1 finds a regression and fails, shard 0 passes, and
// the pull request gets one comment and a final status for both.
func TestActionShards(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	var base []string
	for i, id := range []string{"main-1", "main-2", "main-3"} {
		base = append(base, writeRunAt(t, dir, id, i))
	}
	if _, errOut, code := invoke(t, nil, append([]string{"record", "--store", store}, base...)...); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	fake := fakegithub.New(t, "ghs_tok")
	together := fake.Barrier(2)
	fake.Register(fakegithub.REST("GET", prComments), together)
	fake.Register(fakegithub.REST("GET", prComments), together)
	shards := []string{
		writeRun(t, dir, "pr-s0", "changes", model.EventPullRequest, e2ePR, [3]float64{1, 1, 1}),
		writeRun(t, dir, "pr-s1", "changes", model.EventPullRequest, e2ePR, [3]float64{1.25, 1, 1}),
	}
	type result struct {
		shard, code int
		stderr      string
	}
	done := make(chan result, 2)
	for i, file := range shards {
		vars := prVars(t, fake, file, map[string]string{"shards": "2", "shard": string(rune('0' + i)), "store-dir": store})
		go func() {
			code, _, stderr := runActionInProcess(t, vars)
			done <- result{i, code, stderr}
		}()
	}
	for range shards {
		select {
		case r := <-done:
			if want := r.shard; r.code != want { // shard 1 holds the regression
				t.Errorf("shard %d: exit %d, want %d\n%s", r.shard, r.code, want, r.stderr)
			}
		case <-time.After(60 * time.Second):
			t.Fatal("a shard is still running after 60 s")
		}
	}
	cs := fake.Comments("Codertocat", "Hello-World", e2ePR)
	if len(cs) != 1 {
		t.Fatalf("%d comments, want 1", len(cs))
	}
	body := cs[0].Body
	for _, want := range []string{marker, "**Shards**: all 2 reported", "gemm/<wbr>n=4096 @\u200dshard 1", "Regressions (1)"} {
		if !strings.Contains(body, want) {
			t.Errorf("the comment lacks %q:\n%s", want, body)
		}
	}
	st := fake.Statuses("Codertocat", "Hello-World", e2eHeadSHA)
	if len(st) == 0 {
		t.Fatal("no status")
	}
	last := st[len(st)-1]
	if last.State != "failure" || last.Description == nil || !strings.HasPrefix(*last.Description, "2 of 2 shards reported; fail: 1 regression") {
		t.Errorf("last status %s %v, want failure for both shards", last.State, *last.Description)
	}
	fake.Verify(t)
}

// writeRunAt writes baseline run id of master, hour hours after the others.
func writeRunAt(t *testing.T, dir, id string, hour int) string {
	t.Helper()
	path := writeRun(t, dir, id, "master", model.EventPush, 0, [3]float64{1, 1, 1})
	r, err := resultsjson.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	r.Run.StartedAt = r.Run.StartedAt.Add(time.Duration(hour) * time.Hour)
	if err := resultsjson.WriteFile(path, r); err != nil {
		t.Fatal(err)
	}
	return path
}

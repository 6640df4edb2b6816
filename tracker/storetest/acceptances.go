package storetest

import (
	"context"
	"errors"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
)

var acceptanceTests = []contractTest{
	{"AddAndRead", testAcceptancesAddAndRead},
	{"Refused", testAcceptancesRefused},
}

func acceptancesOf(t *testing.T, s history.Store) history.AcceptanceStore {
	t.Helper()
	as, ok := s.(history.AcceptanceStore)
	if !ok {
		t.Fatalf("%T keeps no acceptances (AddAcceptance, Acceptances)", s)
	}
	return as
}

// testAcceptancesAddAndRead: a pull request's acceptances come back oldest
// first, with who, why and the time in UTC; another pull request's or
// repository's do not; pull request 0 reads every one of the repository.
func testAcceptancesAddAndRead(t *testing.T, s history.Store) {
	as, ctx := acceptancesOf(t, s), context.Background()
	if got, err := as.Acceptances(ctx, "o/r", 7); err != nil || len(got) != 0 {
		t.Fatalf("Acceptances of a new store = %v, %v; want none", got, err)
	}
	at := time.Date(2026, 11, 27, 10, 0, 0, 0, time.FixedZone("CET", 3600))
	add := []model.Acceptance{
		{Repo: "o/r", PR: 7, HeadSHA: "abc123", Glob: "gemm/*", Who: "octocat", Reason: "fp32 accumulation", At: at, Comment: "https://github.com/o/r/pull/7#issuecomment-1",
			Changes: map[string]float64{"gemm/bf16/n=4096": 0.18, "gemm/fp16/n=4096": 0.1234567890123}},
		{Repo: "o/r", PR: 8, Glob: "copy", Who: "hubot", At: at},
		{Repo: "o/other", PR: 7, Glob: "copy", Who: "hubot", At: at},
		{Repo: "o/r", PR: 7, Glob: "io/*", Who: "hubot", Reason: `'; drop table runs; -- "quoted"`, At: at.Add(time.Hour)},
	}
	for _, a := range add {
		if err := as.AddAcceptance(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	got, err := as.Acceptances(ctx, "o/r", 7)
	if err != nil || len(got) != 2 {
		t.Fatalf("Acceptances(o/r, 7) = %v, %v; want 2", got, err)
	}
	for i, w := range []model.Acceptance{add[0], add[3]} {
		w.At = w.At.UTC()
		if !reflect.DeepEqual(got[i], w) || got[i].At.Location() != time.UTC {
			t.Errorf("acceptance %d = %+v, want %+v", i, got[i], w)
		}
	}
	if all, err := as.Acceptances(ctx, "o/r", 0); err != nil || len(all) != 3 || all[0].PR != 7 || all[1].PR != 8 || all[2].PR != 7 {
		t.Errorf("Acceptances(o/r, 0) = %+v, %v; want those of #7, #8 and #7, oldest first", all, err)
	}
}

// testAcceptancesRefused: a malformed glob, no author, or a reason with
// control characters is an input error and nothing is stored.
func testAcceptancesRefused(t *testing.T, s history.Store) {
	as, ctx := acceptancesOf(t, s), context.Background()
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	for _, a := range []model.Acceptance{
		{Repo: "o/r", PR: 1, Glob: "gemm/[", Who: "a", At: now},
		{Repo: "o/r", PR: 1, Glob: "gemm", At: now},
		{Repo: "o/r", PR: 0, Glob: "gemm", Who: "a", At: now},
		{Repo: "o/r", PR: 1, Glob: "gemm", Who: "a", At: now, Reason: "a\x1b[31mred"},
		{Repo: "o/r", PR: 1, Glob: "gemm", Who: "a", At: now, Changes: map[string]float64{"gemm": math.Inf(1)}},
	} {
		var ie *model.InputError
		if err := as.AddAcceptance(ctx, a); !errors.As(err, &ie) {
			t.Errorf("AddAcceptance(%+v) = %v, want an input error", a, err)
		}
	}
	if got, err := as.Acceptances(ctx, "o/r", 1); err != nil || len(got) != 0 {
		t.Errorf("Acceptances after refusals = %v, %v; want none", got, err)
	}
}

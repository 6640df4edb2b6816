package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
)

// resetStore is what perfgate baseline reset and check use of a store;
// every store implements it.
type resetStore interface {
	history.ResetStore
	history.ResetSource
}

var resetTests = []contractTest{
	{"AddAndRead", testResetsAddAndRead},
	{"Refused", testResetsRefused},
}

func resetsOf(t *testing.T, s history.Store) resetStore {
	t.Helper()
	rs, ok := s.(resetStore)
	if !ok {
		t.Fatalf("%T keeps no baseline resets (AddReset, Resets)", s)
	}
	return rs
}

// testResetsAddAndRead: resets come back oldest first, with who, why and
// the time in UTC.
func testResetsAddAndRead(t *testing.T, s history.Store) {
	rs, ctx := resetsOf(t, s), context.Background()
	if got, err := rs.Resets(ctx); err != nil || len(got) != 0 {
		t.Fatalf("Resets of a new store = %v, %v; want none", got, err)
	}
	at := time.Date(2026, 11, 27, 10, 0, 0, 0, time.FixedZone("CET", 3600))
	want := []model.Reset{
		{Repo: "o/r", Glob: "gemm/*", At: at.UTC(), Who: "octocat", Reason: "fp8 path: the kernel does more work"},
		{Glob: "saxpy", At: at.Add(time.Hour).UTC(), Who: "hubot", Reason: `'; drop table runs; -- "quoted"`},
	}
	for _, r := range []model.Reset{{Repo: "o/r", Glob: "gemm/*", At: at, Who: "octocat", Reason: want[0].Reason}, want[1]} {
		if err := rs.AddReset(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	got, err := rs.Resets(ctx)
	if err != nil || len(got) != 2 {
		t.Fatalf("Resets = %v, %v; want 2", got, err)
	}
	for i := range want {
		if got[i] != want[i] || !got[i].At.Equal(want[i].At) {
			t.Errorf("reset %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// testResetsRefused: an empty or malformed glob, or a reason with control
// characters, is an input error and nothing is stored.
func testResetsRefused(t *testing.T, s history.Store) {
	rs, ctx := resetsOf(t, s), context.Background()
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	for _, r := range []model.Reset{{Glob: "", At: now}, {Glob: "gemm/[", At: now}, {Glob: "gemm", At: now, Reason: "a\x1b[31mred"}} {
		var ie *model.InputError
		if err := rs.AddReset(ctx, r); !errors.As(err, &ie) {
			t.Errorf("AddReset(%+v) = %v, want an input error", r, err)
		}
	}
	if got, err := rs.Resets(ctx); err != nil || len(got) != 0 {
		t.Errorf("Resets after refusals = %v, %v; want none", got, err)
	}
}

package db

import (
	"context"
	"testing"

	"github.com/perfgate/perfgate/db/dbtest"
)

func serverURL(t testing.TB) string     { return dbtest.ServerURL(t) }
func freshDatabase(t testing.TB) string { return dbtest.FreshDatabase(t) }

// migratedStore returns a Store on a fresh, migrated database, and its URL.
func migratedStore(t testing.TB) (*Store, string) {
	t.Helper()
	u := freshDatabase(t)
	ctx := context.Background()
	if _, err := Migrate(ctx, u, nil); err != nil {
		t.Fatalf("Migrate: %v", err)
	}
	s, err := Open(ctx, u)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, u
}

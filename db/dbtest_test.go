package db

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// serverURL returns PERFGATE_TEST_DATABASE_URL, skipping the test when it is
// unset (failing instead under PERFGATE_REQUIRE_DB=1).
func serverURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv("PERFGATE_TEST_DATABASE_URL")
	if u == "" {
		if os.Getenv("PERFGATE_REQUIRE_DB") == "1" {
			t.Fatal("PERFGATE_REQUIRE_DB=1 but PERFGATE_TEST_DATABASE_URL is not set")
		}
		t.Skip("PERFGATE_TEST_DATABASE_URL is not set: no Postgres to test against (.ci/run provides one)")
	}
	return u
}

// freshDatabase creates an empty database on the test server and returns
// its URL; the database is dropped when the test ends. Tests that each
// have their own database run in parallel.
func freshDatabase(t testing.TB) string {
	t.Helper()
	admin := serverURL(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Fatalf("connect to the test server: %v", err)
	}
	defer conn.Close(ctx)
	b := make([]byte, 6)
	rand.Read(b)
	name := "perfgate_test_" + hex.EncodeToString(b)
	if _, err := conn.Exec(ctx, "create database "+name); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		conn, err := pgx.Connect(ctx, admin)
		if err != nil {
			t.Errorf("connect to drop %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "drop database if exists "+name+" with (force)"); err != nil {
			t.Errorf("drop test database: %v", err)
		}
	})
	return withDatabase(t, admin, name)
}

// withDatabase returns the connection string base pointing at database name.
func withDatabase(t testing.TB, base, name string) string {
	t.Helper()
	if strings.HasPrefix(base, "postgres://") || strings.HasPrefix(base, "postgresql://") {
		u, err := url.Parse(base)
		if err != nil {
			t.Fatalf("PERFGATE_TEST_DATABASE_URL: %v", err)
		}
		u.Path = "/" + name
		return u.String()
	}
	return base + " dbname=" + name // key=value form: the last setting wins
}

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

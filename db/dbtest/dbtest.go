// Package dbtest gives tests a real, empty Postgres database of their own,
// on the server named by PERFGATE_TEST_DATABASE_URL. Without the variable
// tests skip with the reason; with PERFGATE_REQUIRE_DB=1 they fail instead
// (CI sets it, so database tests can never silently not run).
//
// It imports testing, so only test files may import it.
package dbtest

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

// ServerURL returns PERFGATE_TEST_DATABASE_URL, skipping the test when it is
// unset (failing instead under PERFGATE_REQUIRE_DB=1).
func ServerURL(t testing.TB) string {
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

// FreshDatabase creates an empty database on the test server and returns
// its URL; the database is dropped when the test ends. Tests that each
// have their own database can run in parallel.
func FreshDatabase(t testing.TB) string {
	t.Helper()
	admin := ServerURL(t)
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
	return WithDatabase(t, admin, name)
}

// WithDatabase returns the connection string base pointing at database name.
func WithDatabase(t testing.TB, base, name string) string {
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

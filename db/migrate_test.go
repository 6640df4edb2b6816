package db

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/perfgate/perfgate/tracker/model"
)

func TestMigrateFreshThenNoop(t *testing.T) {
	t.Parallel()
	u := freshDatabase(t)
	ctx := context.Background()
	var applied []string
	res, err := Migrate(ctx, u, func(seq int32, name string) { applied = append(applied, name) })
	if err != nil {
		t.Fatalf("Migrate: %v", err)
	}
	want := SchemaVersion()
	if res != (MigrateResult{From: 0, To: want}) || len(applied) != int(want) {
		t.Errorf("first Migrate = %+v, applied %v; want 0 -> %d with %d migrations", res, applied, want, want)
	}
	applied = nil
	res, err = Migrate(ctx, u, func(seq int32, name string) { applied = append(applied, name) })
	if err != nil || res != (MigrateResult{From: want, To: want}) || len(applied) != 0 {
		t.Errorf("second Migrate = %+v, %v, applied %v; want a no-op", res, err, applied)
	}
}

func TestMigrateConcurrently(t *testing.T) {
	t.Parallel()
	u := freshDatabase(t)
	const jobs = 8
	errs := make([]error, jobs)
	results := make([]MigrateResult, jobs)
	var mu sync.Mutex
	steps := map[int32]int{}
	var wg sync.WaitGroup
	for i := range jobs {
		wg.Go(func() {
			results[i], errs[i] = Migrate(context.Background(), u, func(seq int32, _ string) {
				mu.Lock()
				steps[seq]++
				mu.Unlock()
			})
		})
	}
	wg.Wait()
	want := SchemaVersion()
	migrated := 0
	for i, err := range errs {
		if err != nil {
			t.Errorf("migrator %d: %v", i, err)
		}
		if results[i].To != want {
			t.Errorf("migrator %d: result %+v, want To %d", i, results[i], want)
		}
		if results[i].From != results[i].To {
			migrated++
		}
	}
	// Each step ran once, and only the job that ran them says it migrated.
	for seq := int32(1); seq <= want; seq++ {
		if steps[seq] != 1 {
			t.Errorf("migration %d applied %d times, want once", seq, steps[seq])
		}
	}
	if migrated != 1 {
		t.Errorf("%d jobs report migrating, want 1: %+v", migrated, results)
	}
	s, err := Open(context.Background(), u)
	if err != nil {
		t.Fatalf("Open after concurrent migrations: %v", err)
	}
	s.Close()
}

func TestOpenRefusesOtherSchemas(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	want := SchemaVersion()
	cases := []struct {
		name    string
		prepare func(t *testing.T, u string) // on a fresh database
		have    int32
	}{
		{"unmigrated", func(t *testing.T, u string) {}, 0},
		{"newer", func(t *testing.T, u string) { migrateAndSet(t, u, want+1) }, want + 1},
		{"older", func(t *testing.T, u string) { migrateAndSet(t, u, want-1) }, want - 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			u := freshDatabase(t)
			c.prepare(t, u)
			s, err := Open(ctx, u)
			var se *SchemaError
			if !errors.As(err, &se) {
				if s != nil {
					s.Close()
				}
				t.Fatalf("Open = %v, want a *SchemaError", err)
			}
			if se.Have != c.have || se.Want != want {
				t.Errorf("SchemaError = %+v, want have %d want %d", se, c.have, want)
			}
		})
	}
	t.Run("migrate refuses newer", func(t *testing.T) {
		t.Parallel()
		u := freshDatabase(t)
		migrateAndSet(t, u, want+1)
		if _, err := Migrate(ctx, u, nil); !errors.As(err, new(*SchemaError)) {
			t.Errorf("Migrate of a newer schema = %v, want a *SchemaError", err)
		}
	})
}

// migrateAndSet migrates the database, then forges its schema version.
func migrateAndSet(t *testing.T, u string, v int32) {
	t.Helper()
	ctx := context.Background()
	if _, err := Migrate(ctx, u, nil); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "update "+versionTable+" set version = $1", v); err != nil {
		t.Fatal(err)
	}
}

func TestSchemaErrorMessages(t *testing.T) {
	for _, c := range []struct {
		err  SchemaError
		want string
	}{
		{SchemaError{0, 1}, "the database has no perfgate schema: run 'perfgate migrate --db URL' first"},
		{SchemaError{1, 2}, "the database schema is version 1, this perfgate needs 2: run 'perfgate migrate --db URL'"},
		{SchemaError{3, 2}, "the database schema is version 3, newer than this perfgate knows (2): upgrade perfgate"},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.err, got, c.want)
		}
	}
}

func TestOpenUnreachable(t *testing.T) {
	t.Parallel()
	port := closedPort(t)
	_, err := Open(context.Background(), fmt.Sprintf("postgres://postgres@127.0.0.1:%d/x?sslmode=disable&connect_timeout=5", port))
	var ie *model.InfraError
	if !errors.As(err, &ie) {
		t.Fatalf("Open of a closed port = %v, want a *model.InfraError", err)
	}
}

func TestOpenBadURL(t *testing.T) {
	_, err := Open(context.Background(), "postgres://[::1")
	if !model.IsInputError(err) {
		t.Fatalf("Open of a malformed URL = %v, want a *model.InputError", err)
	}
}

// closedPort returns a loopback port nothing listens on.
func closedPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}

package db

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/tern/v2/migrate"
	"github.com/perfgate/perfgate/tracker/model"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// versionTable is tern's one-row table holding the schema version. It is
// left unqualified so that a search_path in the URL picks the schema.
const versionTable = "perfgate_schema_version"

// A SchemaError reports a database whose schema this perfgate cannot use:
// not migrated at all, migrated to an older version, or to a newer one.
// Commands exit with code 3 on it: the fix is operational (run perfgate
// migrate, or upgrade perfgate), not a change to the command line.
type SchemaError struct {
	Have int32 // the database's version; 0 when never migrated
	Want int32 // the version this perfgate needs
}

func (e *SchemaError) Error() string {
	switch {
	case e.Have == 0:
		return fmt.Sprintf("the database has no perfgate schema: run 'perfgate migrate %s URL' first", model.Flag("db"))
	case e.Have < e.Want:
		return fmt.Sprintf("the database schema is version %d, this perfgate needs %d: run 'perfgate migrate %s URL'", e.Have, e.Want, model.Flag("db"))
	default:
		return fmt.Sprintf("the database schema is version %d, newer than this perfgate knows (%d): upgrade perfgate", e.Have, e.Want)
	}
}

// SchemaVersion is the schema version this build of perfgate needs: the
// number of embedded migrations.
func SchemaVersion() int32 {
	names, err := migrate.FindMigrations(migrationsFS())
	if err != nil {
		panic("db: embedded migrations are broken: " + err.Error())
	}
	return int32(len(names))
}

func migrationsFS() fs.FS {
	sub, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		panic(err)
	}
	return sub
}

// A MigrateResult says what Migrate did.
type MigrateResult struct {
	From, To int32
}

// String is what perfgate migrate prints once done.
func (r MigrateResult) String() string {
	if r.From == r.To {
		return fmt.Sprintf("schema already at version %d", r.To)
	}
	return fmt.Sprintf("schema migrated from version %d to %d", r.From, r.To)
}

// Migrate brings the database at url to SchemaVersion. tern holds a
// session-level advisory lock for the duration, so concurrent migrations
// (two CI jobs starting at once) apply each step exactly once. It refuses a
// database newer than this perfgate. progress, if not nil, hears of each
// migration as it starts.
func Migrate(ctx context.Context, url string, progress func(seq int32, name string)) (MigrateResult, error) {
	conn, err := connect(ctx, url)
	if err != nil {
		return MigrateResult{}, err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	m, err := migrate.NewMigrator(ctx, conn, versionTable)
	if err != nil {
		return MigrateResult{}, infra("prepare schema version table", err)
	}
	if err := m.LoadMigrations(migrationsFS()); err != nil {
		return MigrateResult{}, fmt.Errorf("load embedded migrations: %w", err)
	}
	from, err := m.GetCurrentVersion(ctx)
	if err != nil {
		return MigrateResult{}, infra("read schema version", err)
	}
	want := int32(len(m.Migrations))
	if from > want {
		return MigrateResult{From: from, To: from}, &SchemaError{Have: from, Want: want}
	}
	applied := 0
	m.OnStart = func(seq int32, name, direction, _ string) {
		applied++
		if progress != nil && direction == "up" {
			progress(seq, name)
		}
	}
	if err := m.Migrate(ctx); err != nil {
		return MigrateResult{From: from}, infra("migrate", err)
	}
	if applied == 0 {
		// from was read before tern took the lock: a concurrent job
		// migrated in between, and this one found nothing to do.
		from = want
	}
	return MigrateResult{From: from, To: want}, nil
}

// connect opens one connection, reporting failure as an infrastructure
// error (and a malformed URL as bad input).
func connect(ctx context.Context, url string) (*pgx.Conn, error) {
	cfg, err := parseConfig(url)
	if err != nil {
		return nil, err
	}
	conn, err := pgx.ConnectConfig(ctx, cfg.ConnConfig)
	if err != nil {
		return nil, infra("connect to database", err)
	}
	return conn, nil
}

// currentVersion reads the schema version; 0 when the version table is
// missing (never migrated).
func currentVersion(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}) (int32, error) {
	var v int32
	err := q.QueryRow(ctx, "select version from "+versionTable).Scan(&v)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "42P01" { // undefined_table
		return 0, nil
	}
	if err != nil {
		return 0, infra("read schema version", err)
	}
	return v, nil
}

// infra reports a failed database operation as an infrastructure failure,
// unless the server refused the data itself (a data exception, class 22,
// such as a NUL byte; a program limit, class 54, such as a name too long
// for its index): retrying or spooling cannot help that, so it is bad input.
func infra(op string, err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && (strings.HasPrefix(pgErr.Code, "22") || strings.HasPrefix(pgErr.Code, "54")) {
		return &model.InputError{Msg: fmt.Sprintf("%s: the database rejected it: %s (SQLSTATE %s)", op, pgErr.Message, pgErr.Code), Err: err}
	}
	return &model.InfraError{Op: op, Err: err}
}

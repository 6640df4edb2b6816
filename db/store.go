package db

import (
	"context"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/perfgate/perfgate/tracker/model"
)

// A Store is the Postgres history store. It is safe for concurrent use.
type Store struct {
	pool *pgxpool.Pool
}

// defaultMaxConns bounds a perfgate process's pool unless the URL sets
// pool_max_conns: one command needs a connection or two, and fifty CI jobs
// at once must stay well under the server's max_connections.
const defaultMaxConns = 4

// defaultConnectTimeout applies unless the URL sets connect_timeout, so an
// unreachable server is reported (and the run spooled) promptly.
const defaultConnectTimeout = 10 * time.Second

// Open connects to the database at url (a postgres:// URL or a libpq
// key=value string) and checks that its schema is the one this perfgate
// needs. A server that cannot be reached is a *model.InfraError; a schema
// that is missing, older or newer is a *SchemaError.
func Open(ctx context.Context, url string) (*Store, error) {
	cfg, err := parseConfig(url)
	if err != nil {
		return nil, err
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, infra("connect to database", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, infra("connect to database", err)
	}
	have, err := currentVersion(ctx, pool)
	if err != nil {
		pool.Close()
		return nil, err
	}
	if want := SchemaVersion(); have != want {
		pool.Close()
		return nil, &SchemaError{Have: have, Want: want}
	}
	return &Store{pool: pool}, nil
}

// Close releases the store's connections.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// parseConfig parses a database URL, applying perfgate's pool defaults
// where the URL does not set them. A malformed URL is bad input.
func parseConfig(url string) (*pgxpool.Config, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// Not even the parser's message: pgx masks the password only when
		// it can find it, and quotes the rest of a URL it cannot parse
		// (an '@' or a '%' in the password), so the message can hold most
		// of the password.
		return nil, &model.InputError{Msg: "invalid database URL: not a postgres://USER:PASSWORD@HOST:PORT/DB URL " +
			"(percent-encode '@', '%', '/' and ':' in the password) or a key=value string; " +
			"the parser's message is not shown because it may quote the password"}
	}
	if !strings.Contains(url, "pool_max_conns") {
		cfg.MaxConns = defaultMaxConns
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = defaultConnectTimeout
	}
	cfg.AfterConnect = func(_ context.Context, c *pgx.Conn) error {
		registerFloat8Array(c.TypeMap())
		return nil
	}
	return cfg, nil
}

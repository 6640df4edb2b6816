package main

import (
	"context"
	"flag"
	"time"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/db/filestore"
	"github.com/perfgate/perfgate/db/open"
	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
)

// storeFlags choose the history store of a command that touches history:
// the Postgres database named by --db, else the embedded directory --store.
type storeFlags struct {
	dir   string // --store: the embedded store's directory
	dbURL string // --db: a Postgres URL or DSN; wins over dir
	spool string // --spool (record, check, upload): where runs wait when the database is down

	timeoutText string           // --db-timeout as given; openStore parses it into timeout
	timeout     time.Duration    // each database operation's deadline (0: open.DefaultTimeout)
	warn        func(msg string) // told of damage the embedded store skipped or repaired
	existing    bool             // reads or deletes history only: refuse a --store that holds none
}

// register adds --store and --db to fs, defaulting from PERFGATE_STORE and
// PERFGATE_DATABASE_URL.
func (sf *storeFlags) register(fs *flag.FlagSet, e *cli.Env) {
	fs.StringVar(&sf.dir, "store", e.GetenvOr("PERFGATE_STORE", filestore.DefaultDir),
		"embedded history store `DIR`, used when no database is named (env PERFGATE_STORE)")
	fs.StringVar(&sf.dbURL, "db", e.Getenv("PERFGATE_DATABASE_URL"),
		"Postgres history database `URL` (env PERFGATE_DATABASE_URL); without it, the embedded store")
	sf.registerTimeout(fs, e)
	sf.warn = e.Warn
}

// registerTimeout adds --db-timeout to fs, defaulting from
// PERFGATE_DB_TIMEOUT; cli.ParseDuration checks it after parsing.
func (sf *storeFlags) registerTimeout(fs *flag.FlagSet, e *cli.Env) {
	fs.StringVar(&sf.timeoutText, "db-timeout", e.GetenvOr("PERFGATE_DB_TIMEOUT", open.DefaultTimeout.String()),
		"the longest one database operation may take, e.g. 90s or 5m; past it the command exits 3 (env PERFGATE_DB_TIMEOUT)")
}

// openStore opens the store the flags name (open.Store). The caller closes
// it. A malformed URL is a usage error naming --db; an unreachable server
// or a schema to migrate is an infrastructure failure (exit 3).
func openStore(ctx context.Context, sf storeFlags) (history.Store, error) {
	timeout := sf.timeout
	if sf.dbURL != "" && sf.timeoutText != "" {
		var err error
		if timeout, err = cli.ParseDuration("--db-timeout", sf.timeoutText); err != nil {
			return nil, err
		}
	}
	st, err := open.Store(ctx, open.Options{URL: sf.dbURL, Dir: sf.dir, Timeout: timeout, Warn: sf.warn, Existing: sf.existing})
	switch {
	case model.IsInputError(err) && sf.dbURL != "":
		return nil, cli.UsageErrorf("--db: %v", err)
	case model.IsInputError(err):
		return nil, cli.UsageErrorf("--store: %v", err)
	case err != nil:
		return nil, err
	}
	return st, nil
}

package main

import (
	"context"
	"flag"
	"time"

	"github.com/perfgate/perfgate/db"
	"github.com/perfgate/perfgate/db/filestore"
	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
)

// storeFlags choose the history store of a command that touches history:
// the Postgres database named by --db, else the embedded directory --store.
type storeFlags struct {
	dir   string // --store: the embedded store's directory
	dbURL string // --db: a Postgres URL or DSN; wins over dir
	spool string // --spool (record, check, upload): where runs wait when the database is down

	timeoutText string        // --db-timeout as given; openStore parses it into timeout
	timeout     time.Duration // each database operation's deadline (0: defaultDBTimeout)
}

// register adds --store and --db to fs, defaulting from PERFGATE_STORE and
// PERFGATE_DATABASE_URL.
func (sf *storeFlags) register(fs *flag.FlagSet, e *env) {
	fs.StringVar(&sf.dir, "store", envDefault(e, "PERFGATE_STORE", filestore.DefaultDir),
		"embedded history store `DIR`, used when no database is named (env PERFGATE_STORE)")
	fs.StringVar(&sf.dbURL, "db", e.Getenv("PERFGATE_DATABASE_URL"),
		"Postgres history database `URL` (env PERFGATE_DATABASE_URL); without it, the embedded store")
	sf.registerTimeout(fs, e)
}

// openStore opens the store the flags name. The caller closes it.
func openStore(ctx context.Context, sf storeFlags) (history.Store, error) {
	if sf.dbURL != "" {
		return openDB(ctx, sf)
	}
	return openDir(sf)
}

// openDB opens the Postgres store, which checks the schema version. A
// malformed URL is a usage error naming --db; an unreachable server or a
// schema to migrate is an infrastructure failure (exit 3), which record and
// check answer by spooling (spool.go).
func openDB(ctx context.Context, sf storeFlags) (history.Store, error) {
	timeout := sf.timeout
	if sf.timeoutText != "" {
		var err error
		if timeout, err = parseDuration("--db-timeout", sf.timeoutText); err != nil {
			return nil, err
		}
	}
	if timeout <= 0 {
		timeout = defaultDBTimeout
	}
	st, err := bounded(ctx, timeout, "connect to database", func(ctx context.Context) (*db.Store, error) { return db.Open(ctx, sf.dbURL) })
	if model.IsInputError(err) {
		return nil, usageError("--db: %v", err)
	}
	if err != nil {
		return nil, err
	}
	return &deadlineStore{st: st, timeout: timeout}, nil
}

// openDir opens the embedded directory store.
func openDir(sf storeFlags) (history.Store, error) {
	if sf.dir == "" {
		return nil, usageError("--store: empty directory name")
	}
	return filestore.Open(sf.dir)
}

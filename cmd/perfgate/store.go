package main

import (
	"context"
	"flag"

	"github.com/perfgate/perfgate/db/filestore"
	"github.com/perfgate/perfgate/tracker"
)

// storeFlags choose the history store of a command that touches history:
// the Postgres database named by --db, else the embedded directory --store.
type storeFlags struct {
	dir   string // --store: the embedded store's directory
	dbURL string // --db: a Postgres URL or DSN; wins over dir
}

// register adds --store and --db to fs, defaulting from PERFGATE_STORE and
// PERFGATE_DATABASE_URL.
func (sf *storeFlags) register(fs *flag.FlagSet, e *env) {
	fs.StringVar(&sf.dir, "store", envDefault(e, "PERFGATE_STORE", filestore.DefaultDir),
		"embedded history store `DIR`, used when no database is named (env PERFGATE_STORE)")
	fs.StringVar(&sf.dbURL, "db", e.Getenv("PERFGATE_DATABASE_URL"),
		"Postgres history database `URL` (env PERFGATE_DATABASE_URL); without it, the embedded store")
}

// openStore opens the store the flags name. The caller closes it.
func openStore(ctx context.Context, e *env, sf storeFlags) (tracker.Store, error) {
	if sf.dbURL != "" {
		return openDB(ctx, e, sf)
	}
	return openDir(sf)
}

// openDB opens the Postgres store.
//
// Placeholder until the Postgres store lands: its owner replaces this body
// (and adds spooling) without touching openStore's callers.
func openDB(ctx context.Context, e *env, sf storeFlags) (tracker.Store, error) {
	return nil, usageError("--db: the Postgres store is not built yet")
}

// openDir opens the embedded directory store.
func openDir(sf storeFlags) (tracker.Store, error) {
	if sf.dir == "" {
		return nil, usageError("--store: empty directory name")
	}
	return filestore.Open(sf.dir)
}

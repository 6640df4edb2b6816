package main

import (
	"context"
	"fmt"

	"github.com/perfgate/perfgate/db/open"
	"github.com/perfgate/perfgate/tracker/model"
)

func init() {
	register(&command{Name: "migrate", Run: runMigrate})
}

func runMigrate(ctx context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "migrate", "--db URL")
	url := fs.String("db", e.Getenv("PERFGATE_DATABASE_URL"), "Postgres history database `URL` (env PERFGATE_DATABASE_URL)")
	var sf storeFlags
	sf.registerTimeout(fs, e)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	timeout, err := parseDuration("--db-timeout", sf.timeoutText)
	if err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return usageError("migrate: unexpected argument %q", fs.Arg(0))
	case *url == "":
		return usageError("--db: migrate needs the database URL (or PERFGATE_DATABASE_URL); the embedded store needs no migration")
	}
	res, err := open.Migrate(ctx, *url, timeout, func(seq int32, name string) {
		fmt.Fprintf(e.Stdout, "applying migration %d: %s\n", seq, name)
	})
	if model.IsInputError(err) {
		return usageError("--db: %v", err)
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(e.Stdout, res)
	return nil
}

package main

import (
	"context"
	"fmt"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/db/open"
	"github.com/perfgate/perfgate/tracker/model"
)

func init() {
	commands.Register(&cli.Command{Name: "migrate", Run: runMigrate})
}

func runMigrate(ctx context.Context, args []string, e *cli.Env) error {
	fs := cli.NewFlagSet(e, "migrate", "--db URL")
	url := fs.String("db", e.Getenv("PERFGATE_DATABASE_URL"), "Postgres history database `URL` (env PERFGATE_DATABASE_URL)")
	var sf storeFlags
	sf.registerTimeout(fs, e)
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	timeout, err := cli.ParseDuration("--db-timeout", sf.timeoutText)
	if err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return cli.UsageErrorf("migrate: unexpected argument %q", fs.Arg(0))
	case *url == "":
		return cli.UsageErrorf("--db: migrate needs the database URL (or PERFGATE_DATABASE_URL); the embedded store needs no migration")
	}
	res, err := open.Migrate(ctx, *url, timeout, func(seq int32, name string) {
		fmt.Fprintf(e.Stdout, "applying migration %d: %s\n", seq, name)
	})
	if model.IsInputError(err) {
		return cli.UsageErrorf("--db: %v", err)
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(e.Stdout, res)
	return nil
}

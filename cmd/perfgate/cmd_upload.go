package main

import (
	"context"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/spool"
)

func init() {
	commands.Register(&cli.Command{Name: "upload", Run: runUpload})
}

func runUpload(ctx context.Context, args []string, e *cli.Env) error {
	fs := cli.NewFlagSet(e, "upload", "--db URL [--spool DIR]")
	var sf storeFlags // --db and --spool only: upload has nothing to do with the embedded store
	fs.StringVar(&sf.dbURL, "db", e.Getenv("PERFGATE_DATABASE_URL"), "Postgres history database `URL` to send the runs to (env PERFGATE_DATABASE_URL)")
	sf.registerSpool(fs, e)
	sf.registerTimeout(fs, e)
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return cli.UsageErrorf("upload: unexpected argument %q (the runs come from --spool)", fs.Arg(0))
	case sf.dbURL == "":
		return cli.UsageErrorf("--db: upload sends spooled runs to a database: name it with --db or PERFGATE_DATABASE_URL")
	}
	return spool.UploadDir(ctx, sf.spool, func(ctx context.Context) (history.SourceRecorder, func() error, error) {
		st, err := openStore(ctx, sf)
		if err != nil {
			return nil, nil, err
		}
		return st, st.Close, nil
	}, e.Stdout)
}

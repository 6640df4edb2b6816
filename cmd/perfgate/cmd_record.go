package main

import (
	"context"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/internal/memlimit"
	"github.com/perfgate/perfgate/tracker/check"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

func init() {
	commands.Register(&cli.Command{Name: "record", Run: runRecord})
}

func runRecord(ctx context.Context, args []string, e *cli.Env) error {
	fs := cli.NewFlagSet(e, "record", "[--store DIR | --db URL [--spool DIR]] FILE...")
	var sf storeFlags
	sf.register(fs, e)
	sf.registerSpool(fs, e)
	files, err := cli.ParseFlagsAndFiles(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return cli.UsageErrorf("record: name at least one results FILE")
	}
	heap := memlimit.New(e.Getenv) // embedded store only: Postgres holds more than ForStream's floor (docs/speed.md)
	if sf.dbURL == "" {
		heap.SetStream(memlimit.FileBytes(files))
	}
	defer heap.Restore()
	srcs, err := resultsjson.OpenAll(files, sf.dbURL != "") // every file checked first (Postgres hashes each as it goes); the samples stay in the files
	if err != nil {
		return err
	}
	st, err := openStore(ctx, sf)
	if err == nil {
		defer st.Close()
		err = check.RecordSources(ctx, e.Stdout, st, files, srcs)
	}
	return spoolSourcesOnFailure(e, sf, srcs, err)
}

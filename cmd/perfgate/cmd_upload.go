package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/perfgate/perfgate/tracker/check"
	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/spool"
)

func init() {
	register(&command{
		Name:    "upload",
		Summary: "send the runs spooled while the database was unreachable",
		Run:     runUpload,
	})
}

func runUpload(ctx context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "upload", "--db URL [--spool DIR]")
	var sf storeFlags // --db and --spool only: upload has nothing to do with the embedded store
	fs.StringVar(&sf.dbURL, "db", e.Getenv("PERFGATE_DATABASE_URL"), "Postgres history database `URL` to send the runs to (env PERFGATE_DATABASE_URL)")
	sf.registerSpool(fs, e)
	sf.registerTimeout(fs, e)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return usageError("upload: unexpected argument %q (the runs come from --spool)", fs.Arg(0))
	case sf.dbURL == "":
		return usageError("--db: upload sends spooled runs to a database: name it with --db or PERFGATE_DATABASE_URL")
	}
	files, err := spool.Files(sf.spool)
	if err != nil {
		return &exitError{code: exitInfra, err: fmt.Errorf("--spool %s: %w", sf.spool, err)}
	}
	if len(files) == 0 {
		fmt.Fprintf(e.Stdout, "nothing to upload: %s holds no spooled runs\n", sf.spool)
		return nil
	}
	st, err := openStore(ctx, sf)
	if err != nil {
		return err
	}
	defer st.Close()
	return uploadFiles(ctx, e, st, files)
}

// uploadFiles records each spooled file and removes it once the database
// has it (recorded now or before). A bad or conflicting file stays, is
// reported, and makes the exit code 2; a database failure stops the upload
// with the remaining files in place (exit 3).
func uploadFiles(ctx context.Context, e *env, st history.Recorder, files []string) error {
	var bad []error
	sent := 0
	for _, f := range files {
		r, err := model.Load(f)
		if err != nil { // the error names the file
			bad = append(bad, fmt.Errorf("%w (left in the spool)", err))
			continue
		}
		out, err := st.Record(ctx, r)
		if err == nil {
			if rmErr := os.Remove(f); rmErr != nil {
				return &exitError{code: exitInfra, err: fmt.Errorf("%s: sent, but cannot remove it: %w", f, rmErr)}
			}
			sent++
			what := "uploaded"
			if out == model.Duplicate {
				what = "already in the database"
			}
			fmt.Fprintf(e.Stdout, "%s: %s %s\n", f, what, check.DescribeRun(&r.Run))
			continue
		}
		if spool.Spools(err) {
			return fmt.Errorf("%s: %w (%d of %d spooled run(s) sent; the rest stay spooled)", f, err, sent, len(files))
		}
		bad = append(bad, fmt.Errorf("%s: %w (left in the spool)", f, err))
	}
	if len(bad) > 0 {
		return &exitError{code: exitBadInput, err: errors.Join(bad...)}
	}
	return nil
}

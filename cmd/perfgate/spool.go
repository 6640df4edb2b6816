package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/perfgate/perfgate/cmd/perfgate/internal/cli"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
	"github.com/perfgate/perfgate/tracker/spool"
)

// registerSpool adds --spool to fs (record, check, upload), defaulting from
// PERFGATE_SPOOL.
func (sf *storeFlags) registerSpool(fs *flag.FlagSet, e *cli.Env) {
	fs.StringVar(&sf.spool, "spool", e.GetenvOr("PERFGATE_SPOOL", spool.DefaultDir),
		"`DIR` where runs wait as results files when the database cannot be reached; 'perfgate upload' sends them (env PERFGATE_SPOOL)")
	if f := fs.Lookup("db-timeout"); f != nil { // record and check --record spool the runs past it
		f.Usage = strings.Replace(f.Usage, "exits 3", "exits 3 and the runs it was to record wait in --spool", 1)
	}
}

// spoolOnFailure passes err through, except when it is a passing database
// failure (spool.Spools: unreachable, timed out, a transaction cut off):
// then it writes every run to the spool directory, says so, and exits 3.
// Runs already recorded are spooled too; uploading them again is a no-op.
// Bad input, conflicts and a schema to migrate are not spooled. Only
// commands asked to store runs call it: what was not asked for is never
// spooled.
func spoolOnFailure(e *cli.Env, sf storeFlags, runs []*model.Results, err error) error {
	return spoolWith(e, sf, err, func() ([]string, error) { return spool.Write(sf.spool, runs) })
}

// spoolSourcesOnFailure is spoolOnFailure for runs read a benchmark at a
// time (record): they are loaded whole only to be spooled.
func spoolSourcesOnFailure(e *cli.Env, sf storeFlags, srcs []*resultsjson.Source, err error) error {
	return spoolWith(e, sf, err, func() ([]string, error) { return spool.WriteSources(sf.spool, srcs) })
}

func spoolWith(e *cli.Env, sf storeFlags, err error, write func() ([]string, error)) error {
	if err == nil || sf.dbURL == "" || !spool.Spools(err) {
		return err
	}
	files, serr := write()
	if serr != nil {
		return &cli.ExitError{Code: cli.ExitInfra, Err: fmt.Errorf("%w; spooling the runs to %s failed too: %v", err, sf.spool, serr)}
	}
	fmt.Fprintf(e.Stderr, "perfgate: %v\n", err)
	for _, f := range files {
		fmt.Fprintf(e.Stderr, "perfgate: spooled %s\n", f)
	}
	fmt.Fprintf(e.Stderr, "perfgate: %d run(s) wait in %s; 'perfgate upload --spool %s' sends them once the database is back\n",
		len(files), sf.spool, sf.spool)
	return &cli.ExitError{Code: cli.ExitInfra}
}

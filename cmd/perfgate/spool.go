package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
)

// defaultSpoolDir is where record and check leave runs the database could
// not take, for upload to send later.
const defaultSpoolDir = ".perfgate/spool"

// registerSpool adds --spool to fs (record, check, upload), defaulting from
// PERFGATE_SPOOL.
func (sf *storeFlags) registerSpool(fs *flag.FlagSet, e *env) {
	fs.StringVar(&sf.spool, "spool", envDefault(e, "PERFGATE_SPOOL", defaultSpoolDir),
		"`DIR` where runs wait as results files when the database cannot be reached; 'perfgate upload' sends them (env PERFGATE_SPOOL)")
}

// spoolOnFailure passes err through, except when it is a database failure
// (unreachable, schema to migrate, a transaction cut off): then it writes
// every run to the spool directory, says so, and exits 3. Runs already
// recorded are spooled too; uploading them again is a no-op. Bad input and
// conflicts are the run's fault and are not spooled.
func spoolOnFailure(e *env, sf storeFlags, runs []*model.Results, err error) error {
	if err == nil || sf.dbURL == "" || !isDBFailure(err) {
		return err
	}
	files, serr := spoolRuns(sf.spool, runs)
	if serr != nil {
		return &exitError{code: exitInfra, err: fmt.Errorf("%w; spooling the runs to %s failed too: %v", err, sf.spool, serr)}
	}
	fmt.Fprintf(e.Stderr, "perfgate: %v\n", err)
	for _, f := range files {
		fmt.Fprintf(e.Stderr, "perfgate: spooled %s\n", f)
	}
	fmt.Fprintf(e.Stderr, "perfgate: %d run(s) wait in %s; 'perfgate upload --spool %s' sends them once the database is back\n",
		len(files), sf.spool, sf.spool)
	return &exitError{code: exitInfra}
}

// isDBFailure reports whether err is the database's fault rather than the
// input's.
func isDBFailure(err error) bool {
	var xe *exitError
	if errors.As(err, &xe) || model.IsInputError(err) || errors.As(err, new(*model.ConflictError)) {
		return false
	}
	return true
}

// spoolRuns writes runs into dir as results files, atomically, and returns
// their paths. A run's file name comes from its ID, so spooling it twice
// leaves one file.
func spoolRuns(dir string, runs []*model.Results) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var files []string
	for _, r := range runs {
		p := filepath.Join(dir, spoolName(r.Run.ID))
		if err := model.WriteFile(p, r); err != nil {
			return files, err
		}
		files = append(files, p)
	}
	return files, nil
}

// spoolName is a file name for a run ID: its safe characters, and a hash of
// the whole ID so distinct IDs never share a file.
func spoolName(id string) string {
	safe := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, id)
	if len(safe) > 64 {
		safe = safe[:64]
	}
	if trimmed := strings.TrimLeft(safe, "."); trimmed != safe {
		safe = strings.Repeat("_", len(safe)-len(trimmed)) + trimmed // never a hidden file, "." or ".."
	}
	sum := sha256.Sum256([]byte(id))
	return safe + "-" + hex.EncodeToString(sum[:4]) + ".json"
}

// spooledFiles lists the results files waiting in dir, oldest name first;
// none when dir does not exist.
func spooledFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var files []string
	for _, de := range ents {
		// Temporary files (model.WriteFile's ".NAME.tmpNNN") do not end in
		// ".json"; a hidden ".json" file is a run spooled by an older
		// perfgate from an id starting with '.', and is sent too.
		if de.Type().IsRegular() && strings.HasSuffix(de.Name(), ".json") {
			files = append(files, filepath.Join(dir, de.Name()))
		}
	}
	sort.Strings(files)
	return files, nil
}

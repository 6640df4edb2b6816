// Package spool owns the spool: the directory where runs wait, as results
// files, while the history database cannot take them, until 'perfgate
// upload' sends them. It decides which failures spool a run (Spools) and
// how spooled files are named and listed. It never prints; it imports
// tracker/model and the standard library only.
package spool

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/perfgate/perfgate/internal/atomicfile"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// DefaultDir is where record and check leave runs the database could not
// take.
const DefaultDir = ".perfgate/spool"

// A SchemaError is a database whose schema is older than this perfgate's
// (never migrated, or migrated by an older release): the runs are not
// spooled, since no retry fixes it, and the user must run 'perfgate
// migrate'. Stores report it by implementing SchemaError() bool.
type schemaError interface{ SchemaError() bool }

// Spools reports whether a failure to store runs is the database's fault
// and passing: unreachable, timed out, a transaction cut off. Bad input,
// conflicts and a schema to migrate are not: spooling would only defer
// the same failure.
func Spools(err error) bool {
	if err == nil || model.IsInputError(err) || errors.As(err, new(*model.ConflictError)) {
		return false
	}
	var se schemaError
	if errors.As(err, &se) && se.SchemaError() {
		return false
	}
	return errors.As(err, new(*model.InfraError))
}

// Write writes runs into dir as results files, atomically, and returns
// their paths. A run's file name comes from its ID, so spooling it twice
// leaves one file.
func Write(dir string, runs []*model.Results) ([]string, error) {
	srcs := make([]*resultsjson.Source, len(runs))
	for i, r := range runs {
		srcs[i] = resultsjson.SourceOf(r)
	}
	return WriteSources(dir, srcs)
}

// WriteSources is Write for runs read a benchmark at a time
// (resultsjson.Source): each is written as it is read, so that neither its
// samples nor its JSON are ever held whole.
func WriteSources(dir string, srcs []*resultsjson.Source) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var files []string
	for _, src := range srcs {
		p := filepath.Join(dir, Name(src.Run.ID))
		if err := atomicfile.WriteFunc(p, func(w io.Writer) error { return src.WriteJSON(w, nil) }); err != nil {
			return files, err
		}
		files = append(files, p)
	}
	return files, nil
}

// Name is a file name for a run ID: its safe characters, and a hash of the
// whole ID so distinct IDs never share a file.
func Name(id string) string {
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

// Files lists the results files waiting in dir, oldest name first; none
// when dir does not exist.
func Files(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var files []string
	for _, de := range ents {
		// Temporary files (atomicfile.WriteFunc's ".NAME.tmpNNN") do not end in
		// ".json"; a hidden ".json" file is a run spooled by an older
		// perfgate from an id starting with '.', and is sent too.
		if de.Type().IsRegular() && strings.HasSuffix(de.Name(), ".json") {
			files = append(files, filepath.Join(dir, de.Name()))
		}
	}
	sort.Strings(files)
	return files, nil
}

// Package filestore is perfgate's embedded history store: a directory
// (by default .perfgate/) that needs no server. It implements history.Store
// and passes the same contract tests (tracker/storetest) as the Postgres store.
//
// Layout:
//
//	DIR/runs/ID.json            one results-v1 document per run (compact JSON)
//	DIR/index.tsv               one line per stored run: its file and run block
//	DIR/state                   what index.tsv and runs/ looked like after the last write
//	DIR/catalog.tsv             the benchmarks (suite, name) that have a series file
//	DIR/series/HH/HASH.tsv      one benchmark's trend points, one line per run
//	DIR/lock                    flock(2)ed: shared to read, exclusive to write
//	DIR/damaged/ID.json         run files that no longer load, moved aside by a writer
//
// Run files are written through a temporary file and a rename, so a reader
// never sees half a run. The index, catalog and series files are appended
// to, so recording costs the same whatever the size of the history, and a
// trend reads one short line per point instead of every run file. They are
// caches of the run files: the state file records the runs directory's
// modification time and the index size after each write, and when either
// differs (a run file deleted or added by hand, a crash between writing a
// run and its index line) the next operation checks every run file and
// repairs the index (see verify and repair). A run file rewritten in place
// is noticed when it is read (its size or time differs from its entry).
//
// Damage is repaired, never passed on (damage.go): a catalog or series
// file found missing or malformed is rebuilt from the run files by the
// operation that finds it, and a run file that no longer loads is skipped
// with a warning (Options.Warn) naming it and how to repair it; a writer
// moves it to DIR/damaged/. The history's other runs answer the query.
//
// It imports tracker/model and the tracker interfaces only.
package filestore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
)

// DefaultDir is the store directory used when none is named.
const DefaultDir = ".perfgate"

// A Store is a directory store. Its methods are safe for concurrent use by
// goroutines and by processes sharing the directory.
type Store struct {
	dir  string
	warn func(msg string) // Options.Warn; nil: warnings are dropped
	mu   sync.RWMutex     // orders goroutines of this process; flock orders processes
	// swept is set once this Store's first writer removed the leftovers
	// (under mu held for writing).
	swept bool
}

var _ history.Store = (*Store)(nil)

// Options are how a store reports what it repaired.
type Options struct {
	// Warn is told of damage the store worked around or repaired: a run
	// file skipped, derived files rebuilt. Each message names the file and
	// how to repair it; nil drops them.
	Warn func(msg string)
}

// Open returns the store in dir. Nothing is created until the first run is
// recorded, so reading a store that does not exist yet finds empty history.
func Open(dir string) (*Store, error) { return OpenWith(dir, Options{}) }

// OpenWith is Open with options.
func OpenWith(dir string, o Options) (*Store, error) {
	if dir == "" {
		return nil, errors.New("filestore: empty directory name")
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return nil, &model.InputError{File: dir, Msg: "store path exists and is not a directory"}
	}
	return &Store{dir: dir, warn: o.Warn}, nil
}

// IsStore reports whether dir holds a store: a run was recorded into it
// (its runs directory exists, pruned empty or not). Commands that only
// read or delete history use it to refuse a mistyped directory, which
// would read as empty history.
func IsStore(dir string) bool {
	fi, err := os.Stat(filepath.Join(dir, "runs"))
	return err == nil && fi.IsDir()
}

// Dir returns the store's directory.
func (s *Store) Dir() string { return s.dir }

// Close releases nothing: the store holds no resources between calls.
func (s *Store) Close() error { return nil }

func (s *Store) runsDir() string            { return filepath.Join(s.dir, "runs") }
func (s *Store) runPath(file string) string { return filepath.Join(s.runsDir(), file) }
func (s *Store) indexPath() string          { return filepath.Join(s.dir, "index.tsv") }
func (s *Store) statePath() string          { return filepath.Join(s.dir, "state") }
func (s *Store) catalogPath() string        { return filepath.Join(s.dir, "catalog.tsv") }
func (s *Store) lockPath() string           { return filepath.Join(s.dir, "lock") }
func infra(op string, err error) error      { return &model.InfraError{Op: op, Err: err} }
func notExist(err error) bool               { return errors.Is(err, fs.ErrNotExist) }

// withLock runs fn holding the store's lock: exclusive when write is set,
// shared otherwise. A read of a store that does not exist runs fn unlocked
// with exists == false.
func (s *Store) withLock(ctx context.Context, write bool, fn func(exists bool) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if write {
		s.mu.Lock()
		defer s.mu.Unlock()
		if err := os.MkdirAll(s.runsDir(), 0o755); err != nil {
			return infra("create store directory", err)
		}
	} else {
		s.mu.RLock()
		defer s.mu.RUnlock()
		if _, err := os.Stat(s.runsDir()); notExist(err) {
			return fn(false)
		}
	}
	f, err := s.openLock(write)
	if err != nil {
		return infra("open store lock", err)
	}
	if f == nil {
		return fn(true) // a read-only store: no writer can change it
	}
	defer f.Close()
	how := syscall.LOCK_SH
	if write {
		how = syscall.LOCK_EX
	}
	if err := flock(ctx, f, how); err != nil {
		return infra(fmt.Sprintf("lock %s", s.lockPath()), err)
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	if write && !s.swept {
		s.removeLeftovers()
		s.swept = true
	}
	return fn(true)
}

// openLock opens the lock file, creating it if need be. A reader of a store
// it may not write (a read-only mount, a cache restored without write
// permission) takes the lock read-only, or needs none when the lock file
// cannot exist: then it returns nil.
func (s *Store) openLock(write bool) (*os.File, error) {
	f, err := os.OpenFile(s.lockPath(), os.O_RDWR|os.O_CREATE, 0o644)
	if err == nil || write || !(errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS)) {
		return f, err
	}
	f, err = os.Open(s.lockPath())
	if notExist(err) {
		return nil, nil
	}
	return f, err
}

// flock takes the lock, retrying on EINTR.
func flock(ctx context.Context, f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
}

// removeLeftovers deletes the temporary files of writers killed mid-write
// (atomicfile.Write's ".NAME.tmpNNN", as large as a run): a writer
// holds the exclusive lock, so none can be another writer's. Best effort:
// a file that cannot be removed now is tried again by the next writer.
// It walks every run file's name, so a Store does it once, on its first
// write, not on every one: a long-lived writer (the worker) recording into
// a history of 10⁴ runs paid for the walk on each record, a cost that grew
// with the history. What a writer killed later leaves, the next process to
// write removes.
func (s *Store) removeLeftovers() {
	_ = filepath.WalkDir(s.dir, func(path string, de fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if de.IsDir() && path != s.dir && strings.Count(strings.TrimPrefix(path, s.dir), string(filepath.Separator)) > 1 {
			return filepath.SkipDir
		}
		if n := de.Name(); !de.IsDir() && strings.HasPrefix(n, ".") && strings.Contains(n, ".tmp") {
			_ = os.Remove(path)
		}
		return nil
	})
}

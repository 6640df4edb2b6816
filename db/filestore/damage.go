package filestore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/perfgate/perfgate/internal/atomicfile"
)

// The store's derived files (the index, the catalog, the series files) are
// caches of the run files, and the store itself rebuilds them: the index
// through verify and repair, the catalog and series files here. Telling a
// person to delete them is no repair: a series file deleted by hand makes
// its benchmark's trend start again at the next run, and every earlier
// point is lost to change-point detection.
//
// A run file that no longer loads (truncated, edited, its disk damaged) is
// a lost run, not a reason to refuse the whole history: queries skip it
// with a warning naming it and how to repair it, and a writer moves it to
// DIR/damaged/ so that the warning is given once and the run's ID can be
// recorded again.

// A damagedError is a catalog or series file found missing or malformed.
// The operation that finds it rebuilds them (rebuildSeries) and runs again.
type damagedError struct{ file, why string }

func (e *damagedError) Error() string { return e.file + ": " + e.why }

// A damagedRun is a run file that does not load, found by verify.
type damagedRun struct {
	file string // its name in runs/
	err  error
}

// warnf passes a warning to Options.Warn.
func (s *Store) warnf(format string, args ...any) {
	if s.warn != nil {
		s.warn(fmt.Sprintf(format, args...))
	}
}

func (s *Store) damagedDir() string { return filepath.Join(s.dir, "damaged") }
func (s *Store) seriesDir() string  { return filepath.Join(s.dir, "series") }

// skipRun warns of a run file that a reader skips. A reader may not move
// it; it removes the saved state (best effort: the state only saves the
// next operation a check of every run file), so that the next writer's
// repair finds the file and moves it (quarantine).
func (s *Store) skipRun(d damagedRun) {
	os.Remove(s.statePath())
	s.warnf("%s is damaged and was skipped (%v); the other runs answer. To repair: record the run's results "+
		"file again, or delete %s (the next write moves it to %s)", s.runPath(d.file), d.err, s.runPath(d.file), s.damagedDir())
}

// quarantine moves a run file that does not load out of runs/, into
// damaged/, and says so. Writers call it under the exclusive lock.
func (s *Store) quarantine(d damagedRun) error {
	if err := os.MkdirAll(s.damagedDir(), 0o755); err != nil {
		return infra("create "+s.damagedDir(), err)
	}
	to := filepath.Join(s.damagedDir(), d.file)
	if err := os.Rename(s.runPath(d.file), to); err != nil && !notExist(err) {
		return infra("move damaged run file", err)
	}
	s.warnf("%s is damaged (%v): moved to %s and left out of the history. "+
		"To restore the run, record its results file again; %s may then be deleted", s.runPath(d.file), d.err, to, to)
	return nil
}

// rebuildSeries replaces the catalog and every series file with ones
// rebuilt from the run files. Writers call it under the exclusive lock.
//
// It never leaves a half-written state: first the saved state is removed
// and every run is marked as not in the series files (so from then on a
// reader reads each run's points from its run file, and the next operation
// checks the index); then the series files and the catalog are deleted
// and repair appends every run's points again, marks the runs and saves
// the state. A crash at any point leaves runs whose points are read from
// their files, and the next writer's repair finishes the work.
func (s *Store) rebuildSeries(why error) error {
	s.warnf("%v: rebuilding the catalog and series files from the run files", why)
	if err := os.Remove(s.statePath()); err != nil && !notExist(err) {
		return infra("remove store state", err)
	}
	ix, err := s.verify()
	if err != nil {
		return err
	}
	for i := range ix.Runs {
		ix.Runs[i].Series = false
	}
	if err := s.writeIndex(ix); err != nil {
		return err
	}
	if err := os.RemoveAll(s.seriesDir()); err != nil {
		return infra("remove series files", err)
	}
	// An empty catalog, not none: a store with runs and no catalog has
	// lost it (catalog).
	if err := atomicfile.Write(s.catalogPath(), nil); err != nil {
		return infra("empty benchmark catalog", err)
	}
	return s.repair()
}

// repairOrRebuild is repair, which rebuilds the derived files when it
// finds them damaged.
func (s *Store) repairOrRebuild() error {
	err := s.repair()
	if d, ok := isDamage(err); ok {
		err = s.rebuildSeries(d)
	}
	return err
}

// writing runs fn under the exclusive lock; when fn finds the derived
// files damaged, it rebuilds them and runs fn once more. fn must be
// safe to run again after it failed.
func (s *Store) writing(ctx context.Context, fn func() error) error {
	return s.withLock(ctx, true, func(bool) error {
		err := fn()
		if d, ok := isDamage(err); ok {
			if err = s.rebuildSeries(d); err == nil {
				err = fn()
			}
		}
		return err
	})
}

// repairDamage rebuilds the derived files after a reader found them
// damaged, taking the exclusive lock (a reader holds the shared one only).
// It fails on a store this process may not write.
func (s *Store) repairDamage(ctx context.Context, why error) error {
	return s.withLock(ctx, true, func(bool) error { return s.rebuildSeries(why) })
}

// isDamage reports whether err is a damaged derived file.
func isDamage(err error) (*damagedError, bool) {
	var d *damagedError
	ok := errors.As(err, &d)
	return d, ok
}

package filestore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/perfgate/perfgate/internal/atomicfile"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// Record stores r. The same run ID with the same content (compared in a
// canonical form: UTC times, benchmarks in key order, empty equal to absent)
// is a no-op; with other content it is a *model.ConflictError.
//
// Its cost does not depend on the history: while the store's state is
// fresh, the run's file name says whether it is stored, and recording
// writes the run file, appends the run's points to its benchmarks' series
// files and one line to the index. Only after a change behind the store's
// back does it check (and repair) the whole index first.
func (s *Store) Record(ctx context.Context, r *model.Results) (model.RecordOutcome, error) {
	c, err := prepare(r)
	if err != nil {
		return 0, err
	}
	return s.RecordSource(ctx, resultsjson.SourceOf(c))
}

// RecordSource is Record for a run read a benchmark at a time: the run
// file is written and the series points computed as each benchmark is
// read, so a results file's samples are never held whole. src must be
// checked: resultsjson.OpenSource checks a file, Record a run built in memory.
func (s *Store) RecordSource(ctx context.Context, src *resultsjson.Source) (model.RecordOutcome, error) {
	out := model.Recorded
	err := s.writing(ctx, func() error {
		out = model.Recorded
		if !s.fresh() {
			if err := s.repair(); err != nil {
				return err
			}
		}
		path := s.runPath(fileName(src.Run.ID))
		if _, err := os.Stat(path); err == nil {
			var damaged bool
			if out, damaged, err = s.compareStored(path, src); !damaged {
				return err
			}
		} else if !notExist(err) {
			return infra("stat run file", err)
		}
		return s.add(src)
	})
	if err != nil {
		return 0, err
	}
	return out, nil
}

// repair replaces a stale or damaged index with one that agrees with the run
// files, moves run files that do not load to damaged/, puts the points of
// runs that lack them into the series files, and saves the state. Writers
// call it under the exclusive lock.
func (s *Store) repair() error {
	ix, err := s.verify()
	if err != nil {
		return err
	}
	for _, d := range ix.damaged {
		if err := s.quarantine(d); err != nil {
			return err
		}
	}
	for i := 0; i < len(ix.Runs); i++ {
		e := &ix.Runs[i]
		// A run file added by hand under another name takes its ID's name,
		// the one Record looks for.
		if want := fileName(e.Run.ID); e.File != want {
			if err := os.Rename(s.runPath(e.File), s.runPath(want)); err != nil {
				return infra("rename run file", err)
			}
			e.File = want
		}
		if e.Series {
			continue
		}
		src, err := resultsjson.OpenSource(s.runPath(e.File))
		var stats []stat
		if err == nil {
			stats, err = statsOf(src)
		}
		if model.IsInputError(err) { // changed since verify read it
			if err := s.quarantine(damagedRun{e.File, err}); err != nil {
				return err
			}
			ix.Runs = slices.Delete(ix.Runs, i, i+1)
			i--
			continue
		}
		if err != nil {
			return err
		}
		if err := s.appendSeries(src.Run.ID, src.Heads(), stats); err != nil {
			return err
		}
		e.Series = true
	}
	if err := s.writeIndex(ix); err != nil {
		return err
	}
	os.Remove(filepath.Join(s.dir, "index.json")) // version 1's index, rewritten on every record
	return s.saveState()
}

// prepare returns r as the store writes it (the schema set, nil samples as
// empty arrays, as the format wants), checked by the loader's rules on the
// structs: what the store writes, it can read back.
func prepare(r *model.Results) (*model.Results, error) {
	c := *r
	c.Schema = model.Schema
	c.Benchmarks = slices.Clone(r.Benchmarks)
	for i := range c.Benchmarks {
		if c.Benchmarks[i].Samples == nil {
			c.Benchmarks[i].Samples = []float64{}
		}
	}
	if err := c.Validate(); err != nil {
		var ie *model.InputError
		if errors.As(err, &ie) {
			ie.File = fmt.Sprintf("run %q", r.Run.ID)
		}
		return nil, err
	}
	return &c, nil
}

// add writes the run file (streamed, compact JSON; the points' medians and
// CVs computed as it goes), its points, then the index line that lists it,
// and saves the state. If the index cannot be written, the run file is
// removed: a failed Record stores nothing (points of a run the index does
// not list are ignored).
func (s *Store) add(src *resultsjson.Source) error {
	name := fileName(src.Run.ID)
	path := s.runPath(name)
	heads := src.Heads()
	stats := make([]stat, len(heads))
	var buf []float64
	err := atomicfile.WriteFunc(path, func(w io.Writer) error {
		err := src.WriteJSON(w, func(i int, b *model.Benchmark) error { // compact, streamed
			stats[i], buf = statOf(b, buf)
			return nil
		})
		if err != nil {
			return err
		}
		_, err = io.WriteString(w, "\n")
		return err
	})
	if model.IsInputError(err) {
		return err // the results file changed as it was read
	}
	if err != nil {
		return infra("write run file", err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return infra("stat run file", err)
	}
	n := 0
	for i := range heads {
		n += heads[i].N
	}
	e := entry{File: name, Size: fi.Size(), ModTime: fi.ModTime().UnixNano(), Samples: n, Series: true, Run: src.Run}
	err = s.appendSeries(src.Run.ID, heads, stats)
	if err == nil {
		err = s.appendIndex(&e)
	}
	if err != nil {
		os.Remove(path)
		return err
	}
	return s.saveState()
}

// compareStored decides between Duplicate and a conflict, by the content
// hashes of the stored run and src (the same rule as the Postgres store's).
// A stored file that no longer loads is moved to damaged/ (damaged is set):
// src then takes its place, which is how such a run is repaired.
func (s *Store) compareStored(path string, src *resultsjson.Source) (out model.RecordOutcome, damaged bool, err error) {
	stored, err := resultsjson.OpenSource(path)
	var a []byte
	if err == nil {
		a, err = stored.ContentHash()
	}
	if model.IsInputError(err) {
		return 0, true, s.quarantine(damagedRun{filepath.Base(path), err})
	}
	if err != nil {
		return 0, false, err
	}
	b, err := src.ContentHash()
	if err != nil {
		return 0, false, err
	}
	if !bytes.Equal(a, b) {
		return 0, false, &model.ConflictError{RunID: src.Run.ID}
	}
	return model.Duplicate, false, nil
}

// writerIndex returns the index for a writer (under the exclusive lock):
// the stored one, repaired first if the state is not fresh.
func (s *Store) writerIndex() (*index, error) {
	if s.fresh() {
		if ix, err := s.readIndex(); err == nil {
			return ix, nil
		}
	}
	if err := s.repairOrRebuild(); err != nil {
		return nil, err
	}
	ix, err := s.readIndex()
	if err != nil {
		return nil, infra("read store index", err)
	}
	return ix, nil
}

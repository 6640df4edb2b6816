package filestore

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/perfgate/perfgate/tracker/model"
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
	data, err := encodeValid(r)
	if err != nil {
		return 0, err
	}
	out := model.Recorded
	err = s.withLock(ctx, true, func(bool) error {
		if !s.fresh() {
			if err := s.repair(); err != nil {
				return err
			}
		}
		path := s.runPath(fileName(r.Run.ID))
		if _, err := os.Stat(path); err == nil {
			out, err = s.compareStored(path, r)
			return err
		} else if !notExist(err) {
			return infra("stat run file", err)
		}
		return s.add(r, data)
	})
	if err != nil {
		return 0, err
	}
	return out, nil
}

// repair replaces a stale or damaged index with one that agrees with the run
// files, puts the points of runs that lack them into the series files, and
// saves the state. Writers call it under the exclusive lock.
func (s *Store) repair() error {
	ix, err := s.verify()
	if err != nil {
		return err
	}
	for i := range ix.Runs {
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
		r, err := model.Load(s.runPath(e.File))
		if err != nil {
			return err
		}
		if err := s.appendSeries(r); err != nil {
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

// encodeValid encodes r as a compact results-v1 document and checks that it
// loads: what the store writes, it can read back.
func encodeValid(r *model.Results) ([]byte, error) {
	c := *r
	c.Schema = model.Schema
	c.Benchmarks = slices.Clone(r.Benchmarks)
	for i := range c.Benchmarks {
		if c.Benchmarks[i].Samples == nil {
			c.Benchmarks[i].Samples = []float64{} // the format wants an array, even empty
		}
	}
	data, err := json.Marshal(&c)
	if err != nil {
		return nil, &model.InputError{File: "run " + r.Run.ID, Msg: "cannot encode run", Err: err}
	}
	if _, err := model.Parse(fmt.Sprintf("run %q", r.Run.ID), data); err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// add writes the run file, its points, then the index line that lists it,
// and saves the state. If the index cannot be written, the run file is
// removed: a failed Record stores nothing (points of a run the index does
// not list are ignored).
func (s *Store) add(r *model.Results, data []byte) error {
	name := fileName(r.Run.ID)
	path := s.runPath(name)
	if err := model.WriteFileAtomic(path, data); err != nil {
		return infra("write run file", err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return infra("stat run file", err)
	}
	e := entry{File: name, Size: fi.Size(), ModTime: fi.ModTime().UnixNano(), Samples: countSamples(r), Series: true, Run: r.Run}
	err = s.appendSeries(r)
	if err == nil {
		err = s.appendIndex(&e)
	}
	if err != nil {
		os.Remove(path)
		return err
	}
	return s.saveState()
}

// compareStored decides between Duplicate and a conflict.
func (s *Store) compareStored(path string, r *model.Results) (model.RecordOutcome, error) {
	stored, err := model.Load(path)
	if err != nil {
		return 0, err
	}
	a, err := stored.ContentHash() // the same rule as the Postgres store's
	if err != nil {
		return 0, err
	}
	b, err := r.ContentHash()
	if err != nil {
		return 0, err
	}
	if !bytes.Equal(a, b) {
		return 0, &model.ConflictError{RunID: r.Run.ID}
	}
	return model.Duplicate, nil
}

// writerIndex returns the index for a writer (under the exclusive lock):
// the stored one, repaired first if the state is not fresh.
func (s *Store) writerIndex() (*index, error) {
	if !s.fresh() {
		if err := s.repair(); err != nil {
			return nil, err
		}
	}
	ix, err := s.readIndex()
	if err != nil {
		return nil, infra("read store index", err)
	}
	return ix, nil
}

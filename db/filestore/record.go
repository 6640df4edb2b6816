package filestore

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"slices"

	"github.com/perfgate/perfgate/tracker/model"
)

// Record stores r. The same run ID with the same content (compared in a
// canonical form: UTC times, benchmarks in key order, empty equal to absent)
// is a no-op; with other content it is a *model.ConflictError.
func (s *Store) Record(ctx context.Context, r *model.Results) (model.RecordOutcome, error) {
	data, err := encodeValid(r)
	if err != nil {
		return 0, err
	}
	out := model.Recorded
	err = s.withLock(ctx, true, func(bool) error {
		ix, fresh, err := s.loadIndex()
		if err != nil {
			return err
		}
		if e := ix.find(r.Run.ID); e != nil {
			out, err = s.compareStored(e, r)
			if err == nil && !fresh {
				err = s.writeIndex(ix)
			}
			return err
		}
		return s.add(ix, r, data)
	})
	if err != nil {
		return 0, err
	}
	return out, nil
}

// encodeValid encodes r as a results-v1 document and checks that it loads:
// what the store writes, it can read back.
func encodeValid(r *model.Results) ([]byte, error) {
	c := *r
	c.Schema = model.Schema
	c.Benchmarks = slices.Clone(r.Benchmarks)
	for i := range c.Benchmarks {
		if c.Benchmarks[i].Samples == nil {
			c.Benchmarks[i].Samples = []float64{} // the format wants an array, even empty
		}
	}
	var buf bytes.Buffer
	if err := model.Encode(&buf, &c); err != nil {
		return nil, &model.InputError{File: "run " + r.Run.ID, Msg: "cannot encode run", Err: err}
	}
	if _, err := model.Parse(fmt.Sprintf("run %q", r.Run.ID), buf.Bytes()); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// add writes the run file, then the index that lists it.
func (s *Store) add(ix *index, r *model.Results, data []byte) error {
	name := fileName(r.Run.ID)
	path := s.runPath(name)
	if err := model.WriteFileAtomic(path, data); err != nil {
		return infra("write run file", err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return infra("stat run file", err)
	}
	ix.Runs = append(ix.Runs, entry{File: name, Size: fi.Size(), ModTime: fi.ModTime().UnixNano(),
		Samples: countSamples(r), Run: r.Run})
	if err := s.writeIndex(ix); err != nil {
		os.Remove(path) // a failed Record stores nothing
		return err
	}
	return nil
}

// compareStored decides between Duplicate and a conflict.
func (s *Store) compareStored(e *entry, r *model.Results) (model.RecordOutcome, error) {
	stored, err := model.Load(s.runPath(e.File))
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

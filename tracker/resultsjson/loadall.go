package resultsjson

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"

	"github.com/perfgate/perfgate/tracker/model"
)

// LoadAll loads and validates every file, reporting all the problems
// together, so that a bad file stops a command before it stores or judges
// anything. One run ID in two files with different content is an error;
// the same run twice is not (recording it twice is a no-op; callers that
// pool runs refuse it with DistinctRuns). It is the one loader of results
// files.
func LoadAll(files []string) ([]*model.Results, error) {
	return loadAll(files, Load, func(r *model.Results) string { return r.Run.ID }, sameJSON)
}

// OpenAll is LoadAll for a command that records the runs: every file is
// read and checked, with the same errors, before anything is recorded, but
// each run's benchmarks stay in its file (OpenSource) until a store reads
// them. With hash, each run's content hash is computed as its file is
// checked where the file allows (the run block first, the benchmarks in
// key order): for a store that hashes every run (Postgres), which then
// reads the file once less.
func OpenAll(files []string, hash bool) ([]*Source, error) {
	open := func(path string) (*Source, error) { return openSource(path, hash) }
	return loadAll(files, open, func(s *Source) string { return s.Run.ID }, sameSource)
}

// loadAll opens every file, then checks that files with one run ID agree.
func loadAll[T any](files []string, open func(string) (T, error), id func(T) string, same func(a, b T) bool) ([]T, error) {
	var errs []error
	runs := make([]T, len(files))
	first := map[string]int{} // run ID → index of the file that first had it
	for i, f := range files {
		r, err := open(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		runs[i] = r
		j, seen := first[id(r)]
		if !seen {
			first[id(r)] = i
			continue
		}
		if !same(runs[j], r) {
			errs = append(errs, &model.InputError{File: f, Path: "$.run.id",
				Msg: fmt.Sprintf("run %s is also in %s, with different content (run ids must be unique per run)", id(r), files[j])})
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return runs, nil
}

// DistinctRuns rejects a run given twice on one side of a comparison (two
// files with one run id, or one file named twice): pooled twice, its
// samples would count twice and the p-values would overstate the evidence.
func DistinctRuns(files []string, runs []*model.Results) error {
	first := make(map[string]int, len(runs))
	for i, r := range runs {
		if j, seen := first[r.Run.ID]; seen {
			return &model.InputError{File: files[i], Path: "$.run.id",
				Msg: fmt.Sprintf("run %s is also in %s: a run pooled twice would count its samples twice", r.Run.ID, files[j])}
		}
		first[r.Run.ID] = i
	}
	return nil
}

// sameJSON reports whether a and b encode alike.
func sameJSON(a, b *model.Results) bool {
	var x, y bytes.Buffer
	return Encode(&x, a) == nil && Encode(&y, b) == nil && bytes.Equal(x.Bytes(), y.Bytes())
}

// sameSource reports whether a and b encode alike: their JSON hashes agree
// (two encodings are equal exactly when their compact forms are).
func sameSource(a, b *Source) bool {
	x, y := sha256.New(), sha256.New()
	return a.WriteJSON(x, nil) == nil && b.WriteJSON(y, nil) == nil && bytes.Equal(x.Sum(nil), y.Sum(nil))
}

package model

import (
	"bytes"
	"errors"
	"fmt"
)

// LoadAll loads and validates every file, reporting all the problems
// together, so that a bad file stops a command before it stores or judges
// anything. One run ID in two files with different content is an error;
// the same run twice is not (recording it twice is a no-op; callers that
// pool runs refuse it with DistinctRuns). It is the one loader of results
// files.
func LoadAll(files []string) ([]*Results, error) {
	var errs []error
	runs := make([]*Results, len(files))
	first := map[string]int{} // run ID → index of the file that first had it
	for i, f := range files {
		r, err := Load(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		runs[i] = r
		j, seen := first[r.Run.ID]
		if !seen {
			first[r.Run.ID] = i
			continue
		}
		if !sameJSON(runs[j], r) {
			errs = append(errs, &InputError{File: f, Path: "$.run.id",
				Msg: fmt.Sprintf("run %s is also in %s, with different content (run ids must be unique per run)", r.Run.ID, files[j])})
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
func DistinctRuns(files []string, runs []*Results) error {
	first := make(map[string]int, len(runs))
	for i, r := range runs {
		if j, seen := first[r.Run.ID]; seen {
			return &InputError{File: files[i], Path: "$.run.id",
				Msg: fmt.Sprintf("run %s is also in %s: a run pooled twice would count its samples twice", r.Run.ID, files[j])}
		}
		first[r.Run.ID] = i
	}
	return nil
}

// sameJSON reports whether a and b encode alike.
func sameJSON(a, b *Results) bool {
	var x, y bytes.Buffer
	return Encode(&x, a) == nil && Encode(&y, b) == nil && bytes.Equal(x.Bytes(), y.Bytes())
}

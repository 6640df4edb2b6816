package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
)

func init() {
	register(&command{
		Name:    "record",
		Summary: "store results files in the history (main-branch push runs become baselines)",
		Run:     runRecord,
	})
}

func runRecord(ctx context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "record", "[--store DIR | --db URL [--spool DIR]] FILE...")
	var sf storeFlags
	sf.register(fs, e)
	sf.registerSpool(fs, e)
	files, err := parseFlagsAndFiles(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageError("record: name at least one results FILE")
	}
	runs, err := loadResults(files)
	if err != nil {
		return err
	}
	st, err := openStore(ctx, sf)
	if err != nil {
		return spoolOnFailure(e, sf, runs, err)
	}
	defer st.Close()
	return spoolOnFailure(e, sf, runs, recordAll(ctx, e.Stdout, st, files, runs))
}

// loadResults loads and validates every file before anything is stored, and
// rejects one run ID given twice with different content: a bad file stores
// nothing. All the problems found are reported together.
func loadResults(files []string) ([]*model.Results, error) {
	var errs []error
	runs := make([]*model.Results, len(files))
	first := map[string]int{} // run ID → index of the file that first had it
	for i, f := range files {
		r, err := model.Load(f)
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
			errs = append(errs, &model.InputError{File: f, Path: "$.run.id",
				Msg: fmt.Sprintf("run %s is also in %s, with different content (run ids must be unique per run)", r.Run.ID, files[j])})
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return runs, nil
}

// sameJSON reports whether a and b encode alike.
func sameJSON(a, b *model.Results) bool {
	var x, y bytes.Buffer
	return model.Encode(&x, a) == nil && model.Encode(&y, b) == nil && bytes.Equal(x.Bytes(), y.Bytes())
}

// recordAll records runs, one line each. It stops at the first failure,
// saying how many runs were stored before it.
func recordAll(ctx context.Context, w io.Writer, st history.Recorder, files []string, runs []*model.Results) error {
	for i, r := range runs {
		out, err := st.Record(ctx, r)
		if err != nil {
			if i > 0 {
				err = fmt.Errorf("%s: %w (the %d run(s) before it are stored)", files[i], err, i)
			} else {
				err = fmt.Errorf("%s: %w", files[i], err)
			}
			return err
		}
		what := "recorded"
		if out == model.Duplicate {
			what = "already recorded"
		}
		fmt.Fprintf(w, "%s: %s %s\n", files[i], what, describeRun(&r.Run))
	}
	return nil
}

// describeRun says which run this is, and whether it can be a baseline.
func describeRun(r *model.Run) string {
	s := fmt.Sprintf("run %s (repo %s, branch %s, sha %s, %s, testbed %s, started_at %s)", r.ID, r.Repo, r.Branch, shortSHA(r.Commit), r.Event,
		r.Testbed, r.StartedAt.UTC().Format(time.RFC3339))
	switch {
	case r.PR != 0:
		s += fmt.Sprintf(" — pull request #%d: kept for the record, never a baseline", r.PR)
	case r.Event == model.EventPullRequest:
		s += " — pull-request run: kept for the record, never a baseline"
	}
	return s
}

// shortSHA abbreviates a commit hash to 12 characters.
func shortSHA(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

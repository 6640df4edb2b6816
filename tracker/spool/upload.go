package spool

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/perfgate/perfgate/tracker/check"
	"github.com/perfgate/perfgate/tracker/history"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// Upload records each spooled file (Files) in st and removes it once the
// database has it (recorded now or before), writing a line each to w.
// Each file is checked whole first, its content hash computed as it is
// (upload's store is Postgres, which hashes every run), and then recorded
// a benchmark at a time (resultsjson.OpenAll), so that its samples are never
// held whole. A
// bad or conflicting file stays and is reported: an *model.InputError
// naming every one once the rest are sent. A database failure (Spools)
// stops the upload with the remaining files in place.
func Upload(ctx context.Context, st history.SourceRecorder, files []string, w io.Writer) error {
	var bad []error
	sent := 0
	for _, f := range files {
		srcs, err := resultsjson.OpenAll([]string{f}, true)
		if err != nil { // the error names the file
			bad = append(bad, fmt.Errorf("%w (left in the spool)", err))
			continue
		}
		src := srcs[0]
		out, err := st.RecordSource(ctx, src)
		if err == nil {
			if rmErr := os.Remove(f); rmErr != nil {
				return &model.InfraError{Op: f + ": sent, but cannot remove it", Err: rmErr}
			}
			sent++
			what := "uploaded"
			if out == model.Duplicate {
				what = "already in the database"
			}
			fmt.Fprintf(w, "%s: %s %s\n", f, what, check.DescribeRun(&src.Run))
			continue
		}
		if Spools(err) {
			return fmt.Errorf("%s: %w (%d of %d spooled run(s) sent; the rest stay spooled)", f, err, sent, len(files))
		}
		bad = append(bad, fmt.Errorf("%s: %w (left in the spool)", f, err))
	}
	if len(bad) > 0 {
		return &model.InputError{Msg: "upload", Err: errors.Join(bad...)}
	}
	return nil
}

// UploadDir uploads the spool dir (Upload of its Files), opening the
// database with open only when there is something to send; an empty spool
// says so on w.
func UploadDir(ctx context.Context, dir string, open func(context.Context) (history.SourceRecorder, func() error, error), w io.Writer) error {
	files, err := Files(dir)
	if err != nil {
		return &model.InfraError{Op: model.Flag("spool").String() + " " + dir, Err: err}
	}
	if len(files) == 0 {
		fmt.Fprintf(w, "nothing to upload: %s holds no spooled runs\n", dir)
		return nil
	}
	st, closeStore, err := open(ctx)
	if err != nil {
		return err
	}
	defer closeStore()
	return Upload(ctx, st, files, w)
}

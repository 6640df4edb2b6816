package filestore

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/storetest"
)

// TestRecordSourceWritesWhatRecordWrites records the same runs from memory
// (Record) into one store and from their results files, read a benchmark
// at a time (RecordSource), into another: the run files, series files and
// catalog are byte for byte the same, and so is the index but for the run
// files' modification times. The runs cover benchmarks out of key order,
// without samples, with params, metrics and info, and a second run that
// appends to the first's series.
func TestRecordSourceWritesWhatRecordWrites(t *testing.T) {
	ctx := context.Background()
	var runs []*model.Results
	for k := range 2 {
		r := run(fmt.Sprintf("run-%d", k), k)
		for i := 7; i >= 0; i-- {
			b := model.Benchmark{Suite: "s", Name: fmt.Sprintf("b%d", i), Unit: "ns", Better: model.Lower, Samples: []float64{}}
			for j := range 5 + i + k {
				b.Samples = append(b.Samples, float64(100+i*j%7)+0.25*float64(k))
			}
			switch i {
			case 3:
				b.Samples, b.Error = []float64{}, "failed"
			case 5:
				b.Params, b.Metrics, b.Info = map[string]string{"n": "5"}, map[string]float64{"gbps": 1.5}, map[string]string{"mode": "cold"}
			}
			r.Benchmarks = append(r.Benchmarks, b)
		}
		runs = append(runs, r)
	}
	mem, file := t.TempDir(), t.TempDir()
	ms, err := Open(mem)
	if err != nil {
		t.Fatal(err)
	}
	fsrc, err := Open(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		mustRecord(t, ms, r)
		src := storetest.SourceFile(t, r)
		if out, err := fsrc.RecordSource(ctx, src); err != nil || out != model.Recorded {
			t.Fatalf("RecordSource = %v, %v", out, err)
		}
	}
	want, got := storeFiles(t, mem), storeFiles(t, file)
	if len(want) != len(got) {
		t.Fatalf("%d files stored from files, %d from memory", len(got), len(want))
	}
	mtime := regexp.MustCompile(`(?m)^("[^"]*"\t\d+\t)\d+`)
	if n := len(mtime.FindAll(want["index.tsv"], -1)); n != len(runs) || want["runs/run-1.json"] == nil || want["catalog.tsv"] == nil {
		t.Fatalf("the store from memory has %d index lines and files %v", n, slices.Collect(maps.Keys(want)))
	}
	for name, w := range want {
		g := got[name]
		if name == "index.tsv" {
			w, g = mtime.ReplaceAll(w, []byte("${1}MTIME")), mtime.ReplaceAll(g, []byte("${1}MTIME"))
		}
		if !bytes.Equal(w, g) {
			t.Errorf("%s differs:\nfrom files\n%s\nfrom memory\n%s", name, g, w)
		}
	}
}

// storeFiles returns the contents of a store's files but its state and lock.
func storeFiles(t *testing.T, dir string) map[string][]byte {
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if rel == "state" || rel == "lock" {
			return nil
		}
		files[rel], err = os.ReadFile(path)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

package filestore

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/perfgate/perfgate/internal/atomicfile"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// The trend of a benchmark is read from its series file, one line per run
// (a point: run ID, unit, direction, n, median, CV), so a trend of one
// benchmark over 10,000 runs reads 10,000 short lines instead of decoding
// 10,000 run files. The catalog lists the benchmarks (suite and name) that
// have a series file, for glob patterns. Both are only appended to while
// recording; a line whose run is not in the index (pruned, or a failed
// record) is ignored, and of two lines of one run the last counts.

// seriesPath returns the series file of a benchmark: a hash of its key, so
// that any name is a safe file name, sharded by its first byte.
func (s *Store) seriesPath(k model.Key) string {
	sum := sha256.Sum256([]byte(k.Suite + "\x00" + k.Name))
	h := hex.EncodeToString(sum[:10])
	return filepath.Join(s.dir, "series", h[:2], h+".tsv")
}

// A stat is what a series line says of a benchmark's samples besides
// their count: their median and CV (model.MedianCV).
type stat struct{ median, cv float64 }

// statsOf returns the stat of each benchmark of src with samples, reading
// them a benchmark at a time.
func statsOf(src *resultsjson.Source) ([]stat, error) {
	stats := make([]stat, len(src.Heads()))
	var buf []float64
	err := src.Each(func(i int, b *model.Benchmark) error {
		stats[i], buf = statOf(b, buf)
		return nil
	})
	return stats, err
}

// statOf returns the stat of b, sorting its samples in buf (returned for
// the next benchmark).
func statOf(b *model.Benchmark, buf []float64) (stat, []float64) {
	if len(b.Samples) == 0 {
		return stat{}, buf
	}
	med, cv, buf := model.MedianCVBuf(b.Samples, buf)
	return stat{med, cv}, buf
}

// appendSeries appends the points of run id, whose benchmarks are heads
// with stats, to the series files of its benchmarks. Benchmarks the catalog
// does not list are added to it first, in one append (so a crash never
// leaves a series file the catalog does not name).
func (s *Store) appendSeries(id string, heads []resultsjson.BenchmarkHead, stats []stat) error {
	listed, err := s.catalog()
	if err != nil {
		return err
	}
	have := make(map[model.Key]bool, len(listed))
	for _, k := range listed {
		have[k] = true
	}
	var cat []byte
	dirs := map[string]bool{}
	for i := range heads {
		if b := &heads[i]; b.N > 0 && !have[b.Key()] {
			cat = appendQuoted(cat, b.Suite)
			cat = appendQuoted(append(cat, '\t'), b.Name)
			cat = append(cat, '\n')
			dirs[filepath.Dir(s.seriesPath(b.Key()))] = true
		}
	}
	// The catalog is created even when it gains no line: its absence
	// from a store with runs means it was deleted (catalog).
	if err := appendFile(s.catalogPath(), cat, true); err != nil {
		return err
	}
	if len(cat) > 0 {
		for dir := range dirs {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return infra("create series directory", err)
			}
		}
	}
	var line []byte
	for i := range heads {
		b := &heads[i]
		if b.N == 0 {
			continue // no point: trends skip benchmarks without samples
		}
		p := point{RunID: id, Unit: b.Unit, Better: b.Better, N: b.N, Median: stats[i].median, CV: stats[i].cv}
		// A benchmark the catalog listed has a series file: one missing was
		// deleted, and creating it anew would start its trend again.
		path := s.seriesPath(b.Key())
		err := appendFile(path, appendPoint(line[:0], &p), !have[b.Key()])
		if have[b.Key()] && errors.Is(err, fs.ErrNotExist) {
			return &damagedError{path, "the series file of a benchmark the catalog lists is missing"}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// appendFile appends data to the file at path, creating it if need be
// (create) or failing when it does not exist. It uses the system calls
// directly: a run of 10,000 benchmarks appends to 10,000 files, and
// os.OpenFile adds several calls to each (a regular file is never
// pollable).
func appendFile(path string, data []byte, create bool) error {
	flags := syscall.O_WRONLY | syscall.O_APPEND | syscall.O_CLOEXEC
	if create {
		flags |= syscall.O_CREAT
	}
	fd, err := syscall.Open(path, flags, 0o644)
	if err != nil {
		return infra("append to "+path, err)
	}
	for len(data) > 0 && err == nil {
		var n int
		n, err = syscall.Write(fd, data)
		data = data[n:]
	}
	if cerr := syscall.Close(fd); err == nil {
		err = cerr
	}
	if err != nil {
		return infra("append to "+path, err)
	}
	return nil
}

// catalog returns the benchmarks that have series files, each once. A
// catalog missing from a store that has runs was deleted (every write
// creates it, before any series file).
func (s *Store) catalog() ([]model.Key, error) {
	data, err := os.ReadFile(s.catalogPath())
	if notExist(err) {
		_, serr := os.Stat(s.seriesDir())
		if fi, ierr := os.Stat(s.indexPath()); serr == nil || ierr == nil && fi.Size() > int64(len(indexHeader)) {
			return nil, &damagedError{s.catalogPath(), "the benchmark catalog is missing"}
		}
		return nil, nil
	}
	if err != nil {
		return nil, infra("read benchmark catalog", err)
	}
	var keys []model.Key
	seen := map[model.Key]bool{}
	for line := range strings.Lines(string(data)) {
		line, complete := strings.CutSuffix(line, "\n")
		if !complete {
			continue // a line cut short by a crash: its series file was never created
		}
		f := fields(line)
		if len(f) != 2 {
			return nil, &damagedError{s.catalogPath(), "malformed catalog line"}
		}
		suite, err1 := unquote(f[0])
		name, err2 := unquote(f[1])
		if err1 != nil || err2 != nil {
			return nil, &damagedError{s.catalogPath(), "malformed catalog line"}
		}
		if k := (model.Key{Suite: suite, Name: name}); !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	return keys, nil
}

// readSeries returns the points of benchmark k whose runs keep accepts,
// the last line of each run.
func (s *Store) readSeries(k model.Key, keep func(runID string) bool) (map[string]point, error) {
	data, err := os.ReadFile(s.seriesPath(k))
	if notExist(err) {
		return nil, &damagedError{s.seriesPath(k), "the series file of a benchmark the catalog lists is missing"}
	}
	if err != nil {
		return nil, infra("read series", err)
	}
	points := map[string]point{}
	for line := range strings.Lines(string(data)) {
		line, complete := strings.CutSuffix(line, "\n")
		if !complete {
			continue // cut short by a crash, before its run was indexed
		}
		p, err := parsePoint(line)
		if err != nil {
			return nil, &damagedError{s.seriesPath(k), "malformed series line"}
		}
		if keep(p.RunID) {
			points[p.RunID] = p
		}
	}
	return points, nil
}

// compactSeries rewrites every series file without the lines of runs keep
// rejects (after a prune).
func (s *Store) compactSeries(keep func(runID string) bool) error {
	keys, err := s.catalog()
	if err != nil {
		return err
	}
	for _, k := range keys {
		data, err := os.ReadFile(s.seriesPath(k))
		if notExist(err) {
			continue
		}
		if err != nil {
			return infra("read series", err)
		}
		var out []byte
		for line := range strings.Lines(string(data)) {
			body, complete := strings.CutSuffix(line, "\n")
			if p, err := parsePoint(body); complete && err == nil && keep(p.RunID) {
				out = append(out, line...)
			}
		}
		if len(out) < len(data) {
			if err := atomicfile.Write(s.seriesPath(k), out); err != nil {
				return infra("compact series", err)
			}
		}
	}
	return nil
}

package filestore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/perfgate/perfgate/internal/atomicfile"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// indexHeader is the first line of the index; an index without it (another
// version, or garbage) is rebuilt from the run files.
const indexHeader = "perfgate-filestore-index 2\n"

// An index lists every stored run, in the order recorded. Records append a
// line; only a repair or a prune rewrites it.
type index struct {
	Runs []entry
	// damaged lists the run files verify found that do not load; they are
	// not in Runs (never stored in the index file).
	damaged []damagedRun
}

// A state says what the index and the runs directory looked like after the
// last write through the store: while both still look so, nothing changed
// behind the store's back and the index is trusted as it is. Checking it
// costs two stats, whatever the size of the history; a run file deleted,
// added or renamed by hand changes the directory's modification time and
// sends the next operation through the full check (verify).
type state struct {
	DirMtime  int64 // of the runs directory
	IndexSize int64
}

func (st state) encode() []byte {
	return fmt.Appendf(nil, "perfgate-filestore-state 2 %d %d\n", st.DirMtime, st.IndexSize)
}

func (s *Store) readState() (state, bool) {
	data, err := os.ReadFile(s.statePath())
	if err != nil {
		return state{}, false
	}
	var st state
	n, err := fmt.Sscanf(string(data), "perfgate-filestore-state 2 %d %d\n", &st.DirMtime, &st.IndexSize)
	return st, err == nil && n == 2
}

// current returns the state of the store's files now.
func (s *Store) current() (state, error) {
	dir, err := os.Stat(s.runsDir())
	if err != nil {
		return state{}, err
	}
	st := state{DirMtime: dir.ModTime().UnixNano(), IndexSize: -1}
	if fi, err := os.Stat(s.indexPath()); err == nil {
		st.IndexSize = fi.Size()
	}
	return st, nil
}

// fresh reports whether the stored state matches the files: nothing changed
// since the last write through the store.
func (s *Store) fresh() bool {
	want, ok := s.readState()
	if !ok {
		return false
	}
	have, err := s.current()
	return err == nil && have == want
}

// saveState records the current state. Only writers call it, under the
// exclusive lock, after a write that left the index complete.
func (s *Store) saveState() error {
	st, err := s.current()
	if err == nil {
		err = atomicfile.Write(s.statePath(), st.encode())
	}
	if err != nil {
		return infra("write store state", err)
	}
	return nil
}

// loadIndex returns an index that agrees with the runs directory: the stored
// one when the state says nothing changed, else the result of verify.
// repaired reports that verify found the stored index wrong or stale.
func (s *Store) loadIndex() (ix *index, repaired bool, err error) {
	if s.fresh() {
		if ix, err := s.readIndex(); err == nil {
			return ix, false, nil
		}
	}
	ix, err = s.verifyReader()
	return ix, true, err
}

// verifyReader is verify for a reader: it warns of each damaged run file
// it skips (a writer moves them aside instead, repair).
func (s *Store) verifyReader() (*index, error) {
	ix, err := s.verify()
	if err != nil {
		return nil, err
	}
	for _, d := range ix.damaged {
		s.skipRun(d)
	}
	return ix, nil
}

// readIndex reads and decodes the stored index.
func (s *Store) readIndex() (*index, error) {
	data, err := os.ReadFile(s.indexPath())
	if err != nil {
		return nil, err
	}
	text, ok := strings.CutPrefix(string(data), indexHeader)
	if !ok {
		return nil, errBadLine
	}
	ix := &index{Runs: make([]entry, 0, strings.Count(text, "\n"))}
	for line := range strings.Lines(text) {
		line, complete := strings.CutSuffix(line, "\n")
		e, err := parseEntry(line)
		if err != nil || !complete {
			return nil, errBadLine
		}
		ix.Runs = append(ix.Runs, e)
	}
	return ix, nil
}

// A fileStat is what the index checks of a run file.
type fileStat struct{ size, mtime int64 }

// listRuns lists the run files of the store.
func (s *Store) listRuns() (map[string]fileStat, error) {
	ents, err := os.ReadDir(s.runsDir())
	if notExist(err) {
		return map[string]fileStat{}, nil
	}
	if err != nil {
		return nil, infra("list runs", err)
	}
	files := make(map[string]fileStat, len(ents))
	for _, de := range ents {
		name := de.Name()
		if !de.Type().IsRegular() || strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".json") {
			continue // temporary files of writes in progress, strays
		}
		fi, err := de.Info()
		if notExist(err) {
			continue
		}
		if err != nil {
			return nil, infra("stat run file", err)
		}
		files[name] = fileStat{fi.Size(), fi.ModTime().UnixNano()}
	}
	return files, nil
}

// verify checks the stored index against every run file (name, size,
// modification time) and returns one that agrees: the entries of unchanged
// files are kept, every other file is read again. A file that does not
// load, or holds a run ID another file holds, is left out and listed in
// the index's damaged runs (see damage.go). Entries of files read again
// are marked as not in the series files, so trends read those runs
// themselves until a writer repairs the store.
func (s *Store) verify() (*index, error) {
	files, err := s.listRuns()
	if err != nil {
		return nil, err
	}
	old, err := s.readIndex()
	if err != nil {
		old = s.readIndexV1()
	}
	ix := &index{}
	seen := map[string]string{} // run ID → file
	for _, e := range old.Runs {
		if st, ok := files[e.File]; ok && st == (fileStat{e.Size, e.ModTime}) && seen[e.Run.ID] == "" {
			ix.Runs = append(ix.Runs, e)
			seen[e.Run.ID] = e.File
			delete(files, e.File)
		}
	}
	for _, name := range sortedNames(files) {
		r, err := resultsjson.Load(s.runPath(name))
		if model.IsInputError(err) {
			ix.damaged = append(ix.damaged, damagedRun{name, err})
			continue
		}
		if err != nil {
			return nil, err
		}
		if other, dup := seen[r.Run.ID]; dup {
			ix.damaged = append(ix.damaged, damagedRun{name, fmt.Errorf("run %s is also stored in %s", r.Run.ID, other)})
			continue
		}
		seen[r.Run.ID] = name
		st := files[name]
		ix.Runs = append(ix.Runs, entry{File: name, Size: st.size, ModTime: st.mtime, Samples: countSamples(r), Run: r.Run})
	}
	return ix, nil
}

// readIndexV1 reads the index.json of a store written by perfgate before
// index.tsv (rewritten whole on every record), so that verify reads only the
// run files it does not describe; its runs' points are not in series files
// yet. It returns an empty index when there is none.
func (s *Store) readIndexV1() *index {
	var v1 struct {
		Version int `json:"version"`
		Runs    []struct {
			File    string    `json:"file"`
			Size    int64     `json:"size"`
			ModTime int64     `json:"mtime_ns"`
			Samples int       `json:"samples"`
			Run     model.Run `json:"run"`
		} `json:"runs"`
	}
	data, err := os.ReadFile(filepath.Join(s.dir, "index.json"))
	if err != nil || json.Unmarshal(data, &v1) != nil || v1.Version != 1 {
		return &index{}
	}
	ix := &index{Runs: make([]entry, len(v1.Runs))}
	for i, e := range v1.Runs {
		ix.Runs[i] = entry{File: e.File, Size: e.Size, ModTime: e.ModTime, Samples: e.Samples, Run: e.Run}
	}
	return ix
}

// writeIndex replaces the stored index with ix. Only writers call it, under
// the exclusive lock.
func (s *Store) writeIndex(ix *index) error {
	buf := bytes.NewBufferString(indexHeader)
	var line []byte
	for i := range ix.Runs {
		line = appendEntry(line[:0], &ix.Runs[i])
		buf.Write(line)
	}
	if err := atomicfile.Write(s.indexPath(), buf.Bytes()); err != nil {
		return infra("write store index", err)
	}
	return nil
}

// appendIndex adds e to the stored index: one appended line, synced.
func (s *Store) appendIndex(e *entry) error {
	f, err := os.OpenFile(s.indexPath(), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return infra("append to store index", err)
	}
	_, err = f.Write(appendEntry(nil, e))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return infra("append to store index", err)
	}
	return nil
}

// countSamples counts the samples of a run.
func countSamples(r *model.Results) int {
	n := 0
	for _, b := range r.Benchmarks {
		n += len(b.Samples)
	}
	return n
}

func sortedNames(m map[string]fileStat) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

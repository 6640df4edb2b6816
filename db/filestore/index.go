package filestore

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"slices"
	"strings"

	"github.com/perfgate/perfgate/tracker/model"
)

// indexVersion changes whenever the index format does; an index of another
// version is rebuilt.
const indexVersion = 1

// An index caches the run block of every stored run, so queries choose runs
// without parsing every run file.
type index struct {
	Version int     `json:"version"`
	Runs    []entry `json:"runs"`
}

// An entry describes one stored run file.
type entry struct {
	File    string    `json:"file"`
	Size    int64     `json:"size"`
	ModTime int64     `json:"mtime_ns"`
	Samples int       `json:"samples"`
	Run     model.Run `json:"run"`
}

// fileName returns the run file name for a run ID: the ID itself when it is
// a plain lower-case name, else a sanitised, lower-cased ID plus a hash of
// the ID, so that distinct IDs never share a file, even on a file system
// that ignores case.
func fileName(id string) string {
	clean := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.':
			return r
		case r >= 'A' && r <= 'Z':
			return r - 'A' + 'a'
		}
		return '_'
	}, id)
	if clean == id && len(id) <= 100 && !strings.HasPrefix(id, ".") {
		return id + ".json"
	}
	if len(clean) > 60 {
		clean = clean[:60]
	}
	sum := sha256.Sum256([]byte(id))
	return strings.TrimLeft(clean, ".") + "~" + hex.EncodeToString(sum[:8]) + ".json"
}

// countSamples counts the samples of a run.
func countSamples(r *model.Results) int {
	n := 0
	for _, b := range r.Benchmarks {
		n += len(b.Samples)
	}
	return n
}

// loadIndex returns an index that agrees with the runs directory: the stored
// index if it does, else one rebuilt from the run files. fresh reports
// whether the stored index could be used as it was.
func (s *Store) loadIndex() (ix *index, fresh bool, err error) {
	files, err := s.listRuns()
	if err != nil {
		return nil, false, err
	}
	if ix, err := s.readIndex(); err == nil && ix.matches(files) {
		return ix, true, nil
	}
	ix, err = s.rebuild(files)
	return ix, false, err
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
			continue // pruned just now by a process that holds no lock: impossible, but harmless
		}
		if err != nil {
			return nil, infra("stat run file", err)
		}
		files[name] = fileStat{fi.Size(), fi.ModTime().UnixNano()}
	}
	return files, nil
}

// readIndex reads the stored index. Decoding dominates a query's cost, so
// the last index decoded is kept and reused while the file's bytes are the
// same; callers get their own copy of the entries.
func (s *Store) readIndex() (*index, error) {
	data, err := os.ReadFile(s.indexPath())
	if err != nil {
		return nil, err
	}
	s.cache.Lock()
	defer s.cache.Unlock()
	if s.cache.ix == nil || !bytes.Equal(data, s.cache.raw) {
		var ix index
		if err := json.Unmarshal(data, &ix); err != nil {
			return nil, err
		}
		s.cache.raw, s.cache.ix = data, &ix
	}
	return &index{Version: s.cache.ix.Version, Runs: slices.Clone(s.cache.ix.Runs)}, nil
}

// matches reports whether the index describes exactly these files.
func (ix *index) matches(files map[string]fileStat) bool {
	if ix.Version != indexVersion || len(ix.Runs) != len(files) {
		return false
	}
	for _, e := range ix.Runs {
		st, ok := files[e.File]
		if !ok || st.size != e.Size || st.mtime != e.ModTime {
			return false
		}
	}
	return true
}

// rebuild reads every run file. A run file that does not load is bad input
// naming the file: the store was edited by hand.
func (s *Store) rebuild(files map[string]fileStat) (*index, error) {
	ix := &index{Version: indexVersion}
	seen := map[string]string{}
	for name, st := range files {
		r, err := model.Load(s.runPath(name))
		if err != nil {
			return nil, err
		}
		if other, dup := seen[r.Run.ID]; dup {
			return nil, &model.InputError{File: s.runPath(name), Path: "$.run.id",
				Msg: "run " + r.Run.ID + " is also stored in " + other}
		}
		seen[r.Run.ID] = name
		ix.Runs = append(ix.Runs, entry{File: name, Size: st.size, ModTime: st.mtime, Samples: countSamples(r), Run: r.Run})
	}
	return ix, nil
}

// writeIndex stores ix. Only writers call it, under the exclusive lock.
func (s *Store) writeIndex(ix *index) error {
	data, err := json.Marshal(ix)
	if err != nil {
		return err
	}
	if err := model.WriteFileAtomic(s.indexPath(), data); err != nil {
		return infra("write store index", err)
	}
	return nil
}

// find returns the entry of run id, or nil.
func (ix *index) find(id string) *entry {
	for i := range ix.Runs {
		if ix.Runs[i].Run.ID == id {
			return &ix.Runs[i]
		}
	}
	return nil
}

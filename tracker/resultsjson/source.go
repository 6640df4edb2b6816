package resultsjson

import (
	"cmp"
	"crypto/sha256"
	"encoding/json"
	"hash"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

// A Source is one run's results read a benchmark at a time, so that
// recording a large results file never holds its samples whole. It keeps
// the run block and each benchmark's head (Heads); the benchmarks
// themselves are read again from the file as a store asks for them (Each,
// WriteJSON, ContentHash), one at a time. OpenSource reads a file so;
// SourceOf serves a run held in memory through the same methods, so that a
// store has one recording path for both.
//
// A Source's methods may run at once on several goroutines (a store hashes
// a run while it writes it), except ContentHash with itself.
type Source struct {
	Schema string
	Run    model.Run
	heads  []BenchmarkHead
	mem    *model.Results // the run, when it is held (SourceOf, or a file the fast path did not accept)
	path   string         // else the file its benchmarks are read from,
	spans  []span         // where each benchmark lies in it,
	size   int64          // and the file's size and modification time when it
	mtime  time.Time      // was checked: a change since is an error
	sorted bool           // its benchmarks are in canonical (key) order
	hash   []byte         // ContentHash, once computed
}

// A BenchmarkHead is what a Source keeps of a benchmark while it is
// recorded: its key, unit, direction and params, and how many samples it
// has.
type BenchmarkHead struct {
	Suite, Name, Unit string
	Better            model.Better
	Params            map[string]string
	N                 int
}

// Key returns the benchmark's key.
func (h *BenchmarkHead) Key() model.Key { return model.Key{Suite: h.Suite, Name: h.Name} }

func headOf(b *model.Benchmark) BenchmarkHead {
	return BenchmarkHead{Suite: b.Suite, Name: b.Name, Unit: b.Unit, Better: b.Better, Params: b.Params, N: len(b.Samples)}
}

// SourceOf returns a Source that reads r, which it holds. r must not
// change while the Source is in use.
func SourceOf(r *model.Results) *Source {
	s := &Source{Schema: r.Schema, Run: r.Run, mem: r, heads: make([]BenchmarkHead, len(r.Benchmarks))}
	for i := range r.Benchmarks {
		s.heads[i] = headOf(&r.Benchmarks[i])
	}
	return s
}

// OpenSource reads and checks the results file at path as Load does, with
// the same errors, keeping of its benchmarks only their heads and where
// they lie in the file. A file that the fast loader does not accept
// plainly (or that is not a regular file) is loaded whole, and the Source
// holds it.
func OpenSource(path string) (*Source, error) { return openSource(path, false) }

// openSource is OpenSource; hash computes the content hash as the file is
// checked, where the file allows (scanSource).
func openSource(path string, hash bool) (*Source, error) {
	var s *Source
	whole, err := streamOrParse(path, func(f *os.File, fi os.FileInfo) (ok bool, err error) {
		if s, ok, err = scanSource(f, windowSize, hash); ok {
			s.path, s.size, s.mtime = path, fi.Size(), fi.ModTime()
		}
		return ok, err
	})
	switch {
	case err != nil:
		return nil, err
	case whole != nil:
		return SourceOf(whole), nil
	}
	return s, nil
}

// scanSource is decodeStream keeping only the benchmarks' heads and spans,
// with one benchmark's samples held at a time. With hash, it also computes
// the content hash as it goes, when the run block comes before the
// benchmarks and they are in canonical order (a file sorted by key);
// otherwise ContentHash reads the file again.
func scanSource(r io.Reader, window int, hash bool) (*Source, bool, error) {
	s := &Source{sorted: true}
	var res model.Results
	var last string
	common := map[string]string{} // suites, units and directions repeat: the heads share one copy of each
	intern := func(v string) string {
		if c, ok := common[v]; ok {
			return c
		}
		common[v] = v
		return v
	}
	var sum *hasher
	ok, err := streamDocument(r, window, true, &res, func(b *model.Benchmark, at span) bool {
		h := headOf(b)
		h.Suite, h.Unit, h.Better = intern(h.Suite), intern(h.Unit), model.Better(intern(string(h.Better)))
		s.heads = append(s.heads, h)
		s.spans = append(s.spans, at)
		if s.sorted {
			k := b.Key().String()
			s.sorted = len(s.heads) == 1 || strings.Compare(last, k) <= 0
			last = k
		}
		if len(s.heads) == 1 && hash && res.Run.ID != "" { // the run came first
			sum = newHasher(res.Run)
		}
		if sum != nil && s.sorted {
			sum.add(b) // after headOf: it puts b in canonical form
		}
		return true
	})
	if !ok || err != nil {
		return nil, false, err
	}
	s.Schema, s.Run = res.Schema, res.Run
	if sum != nil && s.sorted {
		s.hash = sum.sum()
	}
	return s, true, nil
}

// A hasher computes a content hash (ContentHash) from the run and
// its benchmarks, given in canonical order.
type hasher struct {
	h   hash.Hash
	ew  errWriter
	buf []byte
	n   int
	err error
}

func newHasher(run model.Run) *hasher {
	z := &hasher{h: sha256.New()}
	z.ew.w = z.h
	z.err = writeHead(&z.ew, model.Schema, model.CanonicalRun(run))
	z.ew.write([]byte(`,"benchmarks":[`))
	return z
}

// add hashes b, which it puts in canonical form.
func (z *hasher) add(b *model.Benchmark) {
	b.Canonicalize()
	var err error
	if z.buf, err = z.ew.writeBenchmark(z.buf, z.n, b); err != nil && z.err == nil {
		z.err = err
	}
	z.n++
}

// sum returns the hash, or nil if encoding failed.
func (z *hasher) sum() []byte {
	z.ew.write([]byte("]}"))
	if z.err != nil || z.ew.err != nil {
		return nil
	}
	return z.h.Sum(nil)
}

// Heads returns the heads of the run's benchmarks, in the document's
// order. The caller must not change them.
func (s *Source) Heads() []BenchmarkHead { return s.heads }

// Failed reports whether no benchmark has samples (Results.Failed).
func (s *Source) Failed() bool {
	for i := range s.heads {
		if s.heads[i].N > 0 {
			return false
		}
	}
	return true
}

// Results returns the whole run: the one held, or its file loaded again.
func (s *Source) Results() (*model.Results, error) {
	if s.mem != nil {
		return s.mem, nil
	}
	return Load(s.path)
}

// Each calls fn with each benchmark in the document's order, stopping at
// its first error. b and its samples are valid only until fn returns (read
// from a file, they are reused) and must not be changed.
func (s *Source) Each(fn func(i int, b *model.Benchmark) error) error {
	if s.mem != nil {
		for i := range s.mem.Benchmarks {
			if err := fn(i, &s.mem.Benchmarks[i]); err != nil {
				return err
			}
		}
		return nil
	}
	rd, err := s.reader()
	if err != nil {
		return err
	}
	defer rd.f.Close()
	for i := range s.spans {
		b, err := rd.benchmark(i, true)
		if err != nil {
			return err
		}
		if err := fn(i, b); err != nil {
			return err
		}
	}
	return nil
}

// WriteJSON writes exactly the bytes the package's WriteJSON writes for the run
// (as loaded, or as held), a benchmark at a time, calling each (when not
// nil) with every benchmark after writing it, as Each does.
func (s *Source) WriteJSON(w io.Writer, each func(i int, b *model.Benchmark) error) error {
	ew := &errWriter{w: w}
	if err := writeHead(ew, s.Schema, s.Run); err != nil {
		return err
	}
	if s.mem != nil && s.mem.Benchmarks == nil {
		ew.write([]byte(`,"benchmarks":null}`))
		return ew.err
	}
	ew.write([]byte(`,"benchmarks":[`))
	var buf []byte
	err := s.Each(func(i int, b *model.Benchmark) error {
		var err error
		if buf, err = ew.writeBenchmark(buf, i, b); err != nil {
			return err
		}
		if each != nil {
			return each(i, b)
		}
		return nil
	})
	if err != nil {
		return err
	}
	ew.write([]byte("]}"))
	return ew.err
}

// writeHead writes the JSON of the schema and run, as WriteJSON does: an
// object left open for the benchmarks.
func writeHead(ew *errWriter, schema string, run model.Run) error {
	head, err := json.Marshal(struct {
		Schema string    `json:"schema"`
		Run    model.Run `json:"run"`
	}{schema, run})
	if err != nil {
		return err
	}
	ew.write(head[:len(head)-1]) // without its closing brace
	return nil
}

// ContentHash returns the package's ContentHash of the run. Read from a file, it
// reads the benchmarks in canonical order: in one pass when the file has
// them so, else each where it lies.
func (s *Source) ContentHash() ([]byte, error) {
	if s.hash != nil {
		return s.hash, nil
	}
	if s.mem != nil {
		return ContentHash(s.mem)
	}
	rd, err := s.reader()
	if err != nil {
		return nil, err
	}
	defer rd.f.Close()
	sum := newHasher(s.Run)
	order := s.canonicalOrder()
	for k := range s.spans {
		i := k
		if order != nil {
			i = order[k]
		}
		b, err := rd.benchmark(i, order == nil)
		if err != nil {
			return nil, err
		}
		sum.add(b)
	}
	if s.hash = sum.sum(); s.hash == nil {
		return nil, cmp.Or(sum.err, sum.ew.err)
	}
	return s.hash, nil
}

// canonicalOrder returns the indexes of the benchmarks in canonical order
// (Canonical's stable sort by key string), or nil when they are in it.
func (s *Source) canonicalOrder() []int {
	if s.sorted {
		return nil
	}
	keys := make([]string, len(s.heads))
	order := make([]int, len(s.heads))
	for i := range s.heads {
		keys[i], order[i] = s.heads[i].Key().String(), i
	}
	slices.SortStableFunc(order, func(x, y int) int { return strings.Compare(keys[x], keys[y]) })
	return order
}

// changed is the error of a file that is no longer what OpenSource read.
func (s *Source) changed() error {
	return &model.InputError{File: s.path, Msg: "the file changed while it was being recorded; record it again"}
}

// A benchReader reads a Source's benchmarks from its file, one at a time.
type benchReader struct {
	src  *Source
	f    *os.File
	buf  []byte // the file's bytes from offset at
	at   int64
	slab []float64 // the samples of the benchmark read last
	b    model.Benchmark
}

// reader opens the source's file, checking that it is unchanged.
func (s *Source) reader() (*benchReader, error) {
	f, err := os.Open(s.path)
	if err != nil {
		return nil, readError(s.path, err)
	}
	fi, err := f.Stat()
	if err != nil || fi.Size() != s.size || !fi.ModTime().Equal(s.mtime) {
		f.Close()
		return nil, s.changed()
	}
	return &benchReader{src: s, f: f}, nil
}

// benchmark decodes benchmark i; ahead reads on past it, for a reader
// that goes through the file in order.
func (r *benchReader) benchmark(i int, ahead bool) (*model.Benchmark, error) {
	data, err := r.bytes(r.src.spans[i], ahead)
	if err != nil {
		return nil, err
	}
	sc := scanner{data: data, slab: r.slab[:0]}
	r.b = model.Benchmark{}
	ok := sc.benchmark(&r.b) && sc.atEnd()
	r.slab = sc.slab
	if h := &r.src.heads[i]; !ok || r.b.Suite != h.Suite || r.b.Name != h.Name || len(r.b.Samples) != h.N {
		return nil, r.src.changed()
	}
	return &r.b, nil
}

// bytes returns the file's bytes in sp, from the buffer when it holds them.
func (r *benchReader) bytes(sp span, ahead bool) ([]byte, error) {
	if sp.start >= r.at && sp.end <= r.at+int64(len(r.buf)) {
		return r.buf[sp.start-r.at : sp.end-r.at], nil
	}
	n := int(sp.end - sp.start)
	size := n
	if ahead {
		size = max(n, windowSize)
	}
	if cap(r.buf) < size {
		r.buf = make([]byte, size)
	}
	m, err := r.f.ReadAt(r.buf[:size], sp.start)
	if m < n {
		if err == nil || err == io.EOF {
			return nil, r.src.changed()
		}
		return nil, readError(r.src.path, err)
	}
	r.buf, r.at = r.buf[:m], sp.start
	return r.buf[:n], nil
}

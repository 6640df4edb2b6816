package resultsjson

import (
	"crypto/sha256"
	"io"

	"github.com/perfgate/perfgate/tracker/model"
)

// ContentHash returns the SHA-256 of r's canonical JSON (maps encode with
// sorted keys, floats in shortest form). Stores use it to tell a re-record
// of the same run (a no-op) from a conflicting one.
func ContentHash(r *model.Results) ([]byte, error) {
	h := sha256.New()
	if err := WriteJSON(h, r.Canonical()); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

// WriteJSON writes exactly the bytes of json.Marshal(r), compact, a
// benchmark at a time, so that hashing or storing a run of millions of
// samples needs no buffer of its whole JSON.
func WriteJSON(w io.Writer, r *model.Results) error {
	ew := &errWriter{w: w}
	if err := writeHead(ew, r.Schema, r.Run); err != nil {
		return err
	}
	if r.Benchmarks == nil {
		ew.write([]byte(`,"benchmarks":null}`))
		return ew.err
	}
	ew.write([]byte(`,"benchmarks":[`))
	var buf []byte
	for i := range r.Benchmarks {
		var err error
		if buf, err = ew.writeBenchmark(buf, i, &r.Benchmarks[i]); err != nil {
			return err
		}
	}
	ew.write([]byte("]}"))
	return ew.err
}

// An errWriter keeps the first write error and skips writes after it.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) write(p []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(p)
	}
}

// writeBenchmark writes b as element i of a benchmarks array (a comma
// before all but the first), encoded in buf, which it returns for the
// next; the error is b's encoding's or the first write's.
func (e *errWriter) writeBenchmark(buf []byte, i int, b *model.Benchmark) ([]byte, error) {
	buf = buf[:0]
	if i > 0 {
		buf = append(buf, ',')
	}
	buf, err := appendJSON(buf, b)
	if err != nil {
		return buf, err
	}
	e.write(buf)
	return buf, e.err
}

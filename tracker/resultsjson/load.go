package resultsjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"unicode/utf8"

	"github.com/perfgate/perfgate/internal/atomicfile"
	"github.com/perfgate/perfgate/tracker/model"
)

// Load reads and validates a results-v1 document from a file. A valid
// regular file is decoded as it is read (decodeStream), never held whole;
// anything else is read whole and goes through Parse, which names the
// problem.
func Load(path string) (*model.Results, error) {
	var r *model.Results
	whole, err := streamOrParse(path, func(f *os.File, _ os.FileInfo) (ok bool, err error) {
		r, ok, err = decodeStream(f, windowSize)
		return ok, err
	})
	if whole != nil || err != nil {
		return whole, err
	}
	return r, nil
}

// streamOrParse opens the results file at path and gives it to stream,
// which decodes it as it reads it and reports whether the fast path
// accepted it. A file that is not a regular file, or that stream did not
// accept, is read whole and parsed (parseFile), and streamOrParse returns
// it; it returns nil once stream has decoded the file. Load, OpenSource
// and Summarizer.Load share it, and so their errors.
func streamOrParse(path string, stream func(f *os.File, fi os.FileInfo) (bool, error)) (*model.Results, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, readError(path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return parseFile(path, f, false)
	}
	ok, err := stream(f, fi)
	if err != nil {
		return nil, readError(path, err)
	}
	if ok {
		return nil, nil
	}
	return parseFile(path, f, true)
}

// parseFile reads f whole (from its start, if rewind) and parses it: Parse
// names the problem of a file the stream did not accept.
func parseFile(path string, f *os.File, rewind bool) (*model.Results, error) {
	if rewind {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, readError(path, err)
		}
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, readError(path, err)
	}
	return Parse(path, data)
}

func readError(path string, err error) error {
	return &model.InputError{File: path, Msg: "cannot read results file", Err: err}
}

// Parse decodes and validates a results-v1 document. name labels errors.
// A valid document is decoded in one pass (decodeFast); anything the fast
// path does not accept goes through the general loader (parseTree), which
// has the one definition of every error message and JSON path.
func Parse(name string, data []byte) (*model.Results, error) {
	if err := CheckUTF8(name, data); err != nil {
		return nil, err
	}
	if r, ok := decodeFast(data); ok {
		return r, nil
	}
	return parseTree(name, data)
}

// parseTree decodes data into a generic tree, validates the tree (naming the
// JSON path of the first problem), then decodes it into the structs.
func parseTree(name string, data []byte) (*model.Results, error) {
	var tree any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&tree); err != nil {
		return nil, syntaxError(name, data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &model.InputError{File: name, Msg: "trailing data after the JSON document"}
	}
	if err := validateTree(tree); err != nil {
		err.File = name
		return nil, err
	}
	var r model.Results
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, &model.InputError{File: name, Msg: "invalid results document", Err: err}
	}
	return &r, nil
}

// notJSONHint follows "invalid JSON" when the input does not even start like
// a JSON document: most likely another tool's output given to a command that
// reads perfgate results.
func notJSONHint() string {
	return fmt.Sprintf("; this is not a perfgate results file: convert another tool's output with 'perfgate ingest %s FORMAT FILE' (e.g. %s gotest for go test -bench)",
		model.Flag("format"), model.Flag("format"))
}

func syntaxError(name string, data []byte, err error) error {
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] != '{' && t[0] != '[' {
		return &model.InputError{File: name, Path: "line 1", Msg: "invalid JSON: " + err.Error() + notJSONHint(), Err: err}
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		// Offset counts the offending byte.
		return &model.InputError{File: name, Path: Position(data, se.Offset-1), Msg: "invalid JSON: " + se.Error(), Err: err}
	}
	return &model.InputError{File: name, Msg: "invalid JSON: " + err.Error(), Err: err}
}

// Position returns "line L, column C" of byte offset off in data (1-based),
// the form every perfgate error uses for a place in a file.
func Position(data []byte, off int64) string {
	line, col := LineCol(data, off)
	return fmt.Sprintf("line %d, column %d", line, col)
}

// LineCol returns the 1-based line and column of byte offset off in data.
func LineCol(data []byte, off int64) (line, col int) {
	line, col = 1, 1
	for i := int64(0); i < off && i < int64(len(data)); i++ {
		if data[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

// Encode writes r as indented JSON: the bytes json.Encoder writes with
// SetIndent("", "  "), a benchmark at a time. Encoding the document whole
// held it three times over (encoded, indented, copied): a 100 MB results
// file took 1 GB to write.
func Encode(w io.Writer, r *model.Results) error {
	if len(r.Benchmarks) == 0 {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	head := *r
	head.Benchmarks = []model.Benchmark{}
	b, err := json.MarshalIndent(&head, "", "  ")
	if err != nil {
		return err
	}
	b, ok := bytes.CutSuffix(b, []byte("[]\n}"))
	if !ok {
		return errors.New("model: unexpected encoding of a results document")
	}
	ew := &errWriter{w: w}
	ew.write(append(b, "[\n"...))
	var compact []byte
	var out bytes.Buffer
	for i := range r.Benchmarks {
		// json.MarshalIndent is json.Marshal, then json.Indent; appendJSON
		// is json.Marshal's bytes (TestAppendJSON), without reflection.
		if compact, err = appendJSON(compact[:0], &r.Benchmarks[i]); err != nil {
			return err
		}
		out.Reset()
		if i > 0 {
			out.WriteString(",\n")
		}
		out.WriteString("    ")
		if err := json.Indent(&out, compact, "    ", "  "); err != nil {
			return err
		}
		ew.write(out.Bytes())
	}
	ew.write([]byte("\n  ]\n}\n"))
	return ew.err
}

// WriteFile writes r to path atomically: a temporary file in the same
// directory, synced, then renamed over path. Nothing half-written is left.
func WriteFile(path string, r *model.Results) error {
	return atomicfile.WriteFunc(path, func(w io.Writer) error { return Encode(w, r) })
}

// CheckUTF8 refuses data that is not valid UTF-8, naming where: JSON
// decoding would silently turn each bad byte into U+FFFD, so two ids or
// names that differ only there would become one.
func CheckUTF8(name string, data []byte) error {
	if utf8.Valid(data) {
		return nil
	}
	off := 0
	for off < len(data) {
		r, n := utf8.DecodeRune(data[off:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		off += n
	}
	return &model.InputError{File: name, Path: Position(data, int64(off)), Msg: fmt.Sprintf("byte 0x%02x at offset %d is not valid UTF-8", data[off], off)}
}

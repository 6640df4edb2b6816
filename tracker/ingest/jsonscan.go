package ingest

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unsafe"

	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// A jscan reads one JSON document held in memory, value by value, for a
// format that must see what encoding/json hides: a key given twice in one
// object (json.Unmarshal keeps the last, silently dropping the first's
// samples), and a number out of range (json reports only a type error).
// Decoding straight into the format's values, it holds no copy of the
// document. Syntax errors name the line and column.
type jscan struct {
	file  string
	data  []byte
	pos   int
	depth int // of objects and arrays open, at most maxDepth
}

// maxDepth bounds nesting, as encoding/json does: each level is a frame
// of the reader's stack.
const maxDepth = 10000

// nest enters an object or array; leave it with s.depth--.
func (s *jscan) nest() error {
	if s.depth++; s.depth > maxDepth {
		return s.errSyntax("nested more than %d deep", maxDepth)
	}
	return nil
}

// errSyntax is a jscan error with its position.
func (s *jscan) errSyntax(format string, args ...any) error {
	return &model.InputError{File: s.file, Path: resultsjson.Position(s.data, int64(s.pos)), Msg: "invalid JSON: " + fmt.Sprintf(format, args...)}
}

func (s *jscan) ws() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// peek returns the next byte after white space, or 0 at the end.
func (s *jscan) peek() byte {
	s.ws()
	if s.pos < len(s.data) {
		return s.data[s.pos]
	}
	return 0
}

// kind names the JSON type of the value starting with c, for messages.
func kind(c byte) string {
	switch {
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	case c == '-' || c >= '0' && c <= '9':
		return "a number"
	}
	return "not a JSON value"
}

func (s *jscan) expect(c byte) error {
	if s.peek() != c {
		if s.pos >= len(s.data) {
			return s.errSyntax("unexpected end of input, want %q", c)
		}
		return s.errSyntax("want %q, found %q", c, s.data[s.pos])
	}
	s.pos++
	return nil
}

// end checks that nothing but white space follows the document.
func (s *jscan) end() error {
	if s.peek() != 0 {
		return &model.InputError{File: s.file, Path: resultsjson.Position(s.data, int64(s.pos)), Msg: "trailing data after the JSON document"}
	}
	return nil
}

// str reads a string.
func (s *jscan) str() (string, error) {
	if err := s.expect('"'); err != nil {
		return "", err
	}
	start, plain := s.pos, true
	for ; s.pos < len(s.data); s.pos++ {
		switch c := s.data[s.pos]; {
		case c == '"':
			s.pos++
			if plain {
				return string(s.data[start : s.pos-1]), nil
			}
			var v string // escapes: encoding/json's rules exactly
			if err := json.Unmarshal(s.data[start-1:s.pos], &v); err != nil {
				s.pos = start
				return "", s.errSyntax("bad string escape")
			}
			return v, nil
		case c == '\\':
			plain = false
			s.pos++
		case c < 0x20:
			return "", s.errSyntax("control character in a string")
		}
	}
	return "", s.errSyntax("unexpected end of input in a string")
}

// number reads a number's text, as JSON writes numbers.
func (s *jscan) number() (string, error) {
	s.ws()
	start := s.pos
	digits := func() int {
		n := 0
		for s.pos < len(s.data) && s.data[s.pos] >= '0' && s.data[s.pos] <= '9' {
			s.pos, n = s.pos+1, n+1
		}
		return n
	}
	if s.pos < len(s.data) && s.data[s.pos] == '-' {
		s.pos++
	}
	ok := digits() > 0
	if s.pos < len(s.data) && s.data[s.pos] == '.' {
		s.pos++
		ok = ok && digits() > 0
	}
	if s.pos < len(s.data) && (s.data[s.pos] == 'e' || s.data[s.pos] == 'E') {
		s.pos++
		if s.pos < len(s.data) && (s.data[s.pos] == '+' || s.data[s.pos] == '-') {
			s.pos++
		}
		ok = ok && digits() > 0
	}
	if !ok {
		s.pos = start
		return "", s.errSyntax("malformed number")
	}
	return unsafe.String(&s.data[start], s.pos-start), nil
}

// float reads a number that must fit a float64; path(), called only then,
// names it in errors.
func (s *jscan) float(path func() string) (float64, error) {
	if c := s.peek(); c != '-' && (c < '0' || c > '9') {
		return 0, bad(s.file, path(), "must be a number, not %s", kind(c))
	}
	text, err := s.number()
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseFloat(text, 64)
	if errors.Is(err, strconv.ErrRange) {
		return 0, bad(s.file, path(), "%s is out of the range of a 64-bit float (about ±1.8e308)", text)
	}
	return v, err
}

// at returns the path of element i of path, for errors.
func at(path string, i int) func() string {
	return func() string { return fmt.Sprintf("%s[%d]", path, i) }
}

// literal reads true, false or null.
func (s *jscan) literal() (string, error) {
	s.ws()
	for _, w := range []string{"true", "false", "null"} {
		if len(s.data)-s.pos >= len(w) && string(s.data[s.pos:s.pos+len(w)]) == w {
			s.pos += len(w)
			return w, nil
		}
	}
	return "", s.errSyntax("unexpected %s", kind(s.peek()))
}

// null consumes a null if one is next.
func (s *jscan) null() bool {
	if s.peek() == 'n' && len(s.data)-s.pos >= 4 && string(s.data[s.pos:s.pos+4]) == "null" {
		s.pos += 4
		return true
	}
	return false
}

// object reads an object, calling field with each key; field must read
// the value. A key given twice is an error naming path: JSON decoders keep
// one of the two values, so the other's data would be lost unseen.
func (s *jscan) object(path string, field func(key string) error) error {
	if c := s.peek(); c != '{' {
		return bad(s.file, path, "must be an object, not %s", kind(c))
	}
	if err := s.nest(); err != nil {
		return err
	}
	defer func() { s.depth-- }()
	s.pos++
	if s.peek() == '}' {
		s.pos++
		return nil
	}
	seen := map[string]bool{}
	for {
		s.ws()
		at := s.pos
		key, err := s.str()
		if err != nil {
			return err
		}
		if seen[key] {
			s.pos = at
			return &model.InputError{File: s.file, Path: path + " (" + resultsjson.Position(s.data, int64(at)) + ")",
				Msg: fmt.Sprintf("key %q appears twice: which one to keep is not for perfgate to guess", key)}
		}
		seen[key] = true
		if err := s.expect(':'); err != nil {
			return err
		}
		if err := field(key); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return nil
		default:
			return s.expect('}')
		}
	}
}

// array reads an array, calling elem with each index; elem must read the
// element.
func (s *jscan) array(path string, elem func(i int) error) error {
	if c := s.peek(); c != '[' {
		return bad(s.file, path, "must be an array, not %s", kind(c))
	}
	if err := s.nest(); err != nil {
		return err
	}
	defer func() { s.depth-- }()
	s.pos++
	if s.peek() == ']' {
		s.pos++
		return nil
	}
	for i := 0; ; i++ {
		if err := elem(i); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.pos++
		case ']':
			s.pos++
			return nil
		default:
			return s.expect(']')
		}
	}
}

// skip reads and discards a value, duplicate keys refused in it too.
// Paths are built only for what may hold an error of its own (objects).
func (s *jscan) skip(path string) error {
	switch c := s.peek(); {
	case c == '{':
		return s.object(path, func(key string) error { return s.skip(fmt.Sprintf("%s[%q]", path, key)) })
	case c == '[':
		return s.array(path, func(i int) error {
			if c := s.peek(); c == '{' || c == '[' {
				return s.skip(at(path, i)())
			}
			return s.skip("")
		})
	case c == '"':
		_, err := s.str()
		return err
	case c == '-' || c >= '0' && c <= '9':
		_, err := s.number()
		return err
	case c == 0:
		return s.errSyntax("unexpected end of input")
	default:
		_, err := s.literal()
		return err
	}
}

// elements counts the elements of the array of numbers starting at the
// next byte, to size its slice: one pass over bytes that hold no strings.
func (s *jscan) elements() int {
	n, empty := 1, true
	for i := s.pos + 1; i < len(s.data); i++ {
		switch c := s.data[i]; c {
		case ']':
			if empty {
				return 0
			}
			return n
		case ',':
			n++
		case ' ', '\t', '\n', '\r':
		case '"', '{', '[':
			return 0 // not numbers: the caller's error comes from the parse
		default:
			empty = false
		}
	}
	return 0
}

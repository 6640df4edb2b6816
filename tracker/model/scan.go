package model

import (
	"encoding/json"
	"strconv"
	"unsafe"
)

// A scanner reads JSON values from a byte slice for the fast loader
// (decodeFast). It only accepts: every method returns false on anything it
// does not handle plainly — invalid JSON, null, an escaped key, a number out
// of range — and Parse then runs the general loader, which accepts or
// reports the problem with its exact path. So the scanner never needs to say
// what is wrong, and it never builds a path.
type scanner struct {
	data []byte
	pos  int
	slab []float64 // samples are carved from here: one allocation per many
}

// slabSize is how many samples one slab allocation holds.
const slabSize = 1 << 14

func (s *scanner) skipSpace() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// peek returns the next non-space byte without consuming it, or 0 at the end.
func (s *scanner) peek() byte {
	s.skipSpace()
	if s.pos < len(s.data) {
		return s.data[s.pos]
	}
	return 0
}

// consume consumes byte c after optional space.
func (s *scanner) consume(c byte) bool {
	if s.peek() != c {
		return false
	}
	s.pos++
	return true
}

// object reads an object, calling field for each key (whose bytes alias the
// input). field must consume the value.
func (s *scanner) object(field func(key []byte) bool) bool {
	if !s.consume('{') {
		return false
	}
	if s.consume('}') {
		return true
	}
	for {
		key, ok := s.rawKey()
		if !ok || !s.consume(':') || !field(key) {
			return false
		}
		if s.consume(',') {
			continue
		}
		return s.consume('}')
	}
}

// array reads an array, calling elem for each element.
func (s *scanner) array(elem func() bool) bool {
	if !s.consume('[') {
		return false
	}
	if s.consume(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		if s.consume(',') {
			continue
		}
		return s.consume(']')
	}
}

// rawKey reads a key made of plain printable ASCII (no escapes), returning
// its bytes. Any other key is left to the general loader.
func (s *scanner) rawKey() ([]byte, bool) {
	if !s.consume('"') {
		return nil, false
	}
	start := s.pos
	for s.pos < len(s.data) {
		c := s.data[s.pos]
		if c == '"' {
			s.pos++
			return s.data[start : s.pos-1], true
		}
		if c == '\\' || c < 0x20 || c >= 0x80 {
			return nil, false
		}
		s.pos++
	}
	return nil, false
}

// str reads a string value as encoding/json decodes it.
func (s *scanner) str() (string, bool) {
	if !s.consume('"') {
		return "", false
	}
	start := s.pos
	for s.pos < len(s.data) {
		c := s.data[s.pos]
		switch {
		case c == '"':
			s.pos++
			return string(s.data[start : s.pos-1]), true
		case c == '\\' || c >= 0x80:
			return s.slowStr(start - 1)
		case c < 0x20:
			return "", false
		}
		s.pos++
	}
	return "", false
}

// slowStr finishes a string with escapes or non-ASCII bytes (from its
// opening quote at start) through encoding/json, for its exact rules on
// escapes, surrogates and invalid UTF-8.
func (s *scanner) slowStr(start int) (string, bool) {
	for s.pos < len(s.data) {
		switch c := s.data[s.pos]; {
		case c == '\\':
			s.pos += 2
			continue
		case c == '"':
			s.pos++
			var v string
			return v, json.Unmarshal(s.data[start:s.pos], &v) == nil
		case c < 0x20:
			return "", false
		}
		s.pos++
	}
	return "", false
}

// rawNumber reads a number token in JSON's grammar and returns its bytes.
func (s *scanner) rawNumber() ([]byte, bool) {
	s.skipSpace()
	d, i := s.data, s.pos
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		i = digits(d, i)
	default:
		return nil, false
	}
	if i < len(d) && d[i] == '.' {
		j := digits(d, i+1)
		if j == i+1 {
			return nil, false
		}
		i = j
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		j := digits(d, i)
		if j == i {
			return nil, false
		}
		i = j
	}
	tok := d[s.pos:i]
	s.pos = i
	return tok, true
}

func digits(d []byte, i int) int {
	for i < len(d) && d[i] >= '0' && d[i] <= '9' {
		i++
	}
	return i
}

// number reads a finite float64 (strconv.ParseFloat, as encoding/json).
func (s *scanner) number() (float64, bool) {
	tok, ok := s.rawNumber()
	if !ok {
		return 0, false
	}
	// ParseFloat keeps no reference to its argument (its errors copy it).
	f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(tok), len(tok)), 64)
	return f, err == nil
}

// boolean reads true or false.
func (s *scanner) boolean() (bool, bool) {
	s.skipSpace()
	rest := s.data[s.pos:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		s.pos += 4
		return true, true
	case len(rest) >= 5 && string(rest[:5]) == "false":
		s.pos += 5
		return false, true
	}
	return false, false
}

// samples reads an array of numbers into the slab and returns the part it
// filled, capped so that appending to it never writes into a neighbour.
func (s *scanner) samples() ([]float64, bool) {
	start := len(s.slab)
	ok := s.array(func() bool {
		f, ok := s.number()
		if !ok {
			return false
		}
		if len(s.slab) == cap(s.slab) {
			n := len(s.slab) - start // this array's samples so far move along
			next := make([]float64, n, max(slabSize, 2*n))
			copy(next, s.slab[start:])
			s.slab, start = next, 0
		}
		s.slab = append(s.slab, f)
		return true
	})
	if !ok {
		return nil, false
	}
	if len(s.slab) == start {
		return []float64{}, true
	}
	return s.slab[start:len(s.slab):len(s.slab)], true
}

// stringMap reads an object of strings.
func (s *scanner) stringMap() (map[string]string, bool) {
	m := map[string]string{}
	ok := s.object(func(key []byte) bool {
		if _, dup := m[string(key)]; dup {
			return false
		}
		v, ok := s.str()
		m[string(key)] = v
		return ok
	})
	return m, ok
}

// numberMap reads an object of finite numbers.
func (s *scanner) numberMap() (map[string]float64, bool) {
	m := map[string]float64{}
	ok := s.object(func(key []byte) bool {
		if _, dup := m[string(key)]; dup {
			return false
		}
		v, ok := s.number()
		m[string(key)] = v
		return ok
	})
	return m, ok
}

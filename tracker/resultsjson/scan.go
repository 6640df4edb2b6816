package resultsjson

import (
	"encoding/json"
	"io"
	"strconv"
	"unsafe"
)

// A scanner reads JSON values for the fast loader (decodeFast), from a byte
// slice or streamed from a reader through a window, so that a large file is
// never held whole. It only accepts: every method returns false on anything
// it does not handle plainly — invalid JSON, null, an escaped key, a number
// out of range, bytes that are not UTF-8 — and the general loader then
// accepts or reports the problem with its exact path. So the scanner never
// needs to say what is wrong, and it never builds a path.
type scanner struct {
	data  []byte    // the input, or the window of it read so far and not yet dropped
	pos   int       // the next byte to read in data
	r     io.Reader // nil: data is the whole input
	err   error     // the reader's error (io.EOF at the end), or errNotUTF8
	valid int       // data[:valid] is checked UTF-8 (streamed input)
	key   []byte    // the current object key, copied out of the window
	slab  []float64 // samples are carved from here: one allocation per many
	esc   bool      // the last string read had escapes or non-ASCII bytes
	off   int64     // the offset in the input of data[0] (streamed input drops what it has read)
	reuse bool      // each benchmark's samples reuse the slab (scanSource: one benchmark held at a time)
}

// slabSize is how many samples one slab allocation holds.
const slabSize = 1 << 14

func (s *scanner) skipSpace() {
	if s.pos < len(s.data) && s.data[s.pos] > ' ' {
		return
	}
	s.skipSpaceSlow()
}

func (s *scanner) skipSpaceSlow() {
	for {
		for s.pos < len(s.data) {
			switch s.data[s.pos] {
			case ' ', '\t', '\n', '\r':
				s.pos++
			default:
				return
			}
		}
		if !s.fill() {
			return
		}
	}
}

// peek returns the next non-space byte without consuming it, or 0 at the end.
func (s *scanner) peek() byte {
	if s.pos < len(s.data) && s.data[s.pos] > ' ' {
		return s.data[s.pos]
	}
	s.skipSpaceSlow()
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

// object reads an object, calling field for each key (copied into s.key,
// valid until the field's value starts a nested object). field must consume
// the value.
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
// its bytes (s.key). Any other key is left to the general loader.
func (s *scanner) rawKey() ([]byte, bool) {
	if s.peek() != '"' {
		return nil, false
	}
	i := s.pos + 1
	for {
		for ; i < len(s.data); i++ {
			c := s.data[i]
			if c == '"' {
				s.key = append(s.key[:0], s.data[s.pos+1:i]...)
				s.pos = i + 1
				return s.key, true
			}
			if c == '\\' || c < 0x20 || c >= 0x80 {
				return nil, false
			}
		}
		var ok bool
		if i, ok = s.more(i); !ok {
			return nil, false
		}
	}
}

// str reads a string value as encoding/json decodes it; s.esc says
// whether it had escapes or non-ASCII bytes.
func (s *scanner) str() (string, bool) {
	s.esc = false
	if s.peek() != '"' {
		return "", false
	}
	i := s.pos + 1
	for {
		for ; i < len(s.data); i++ {
			switch c := s.data[i]; {
			case c == '"':
				v := string(s.data[s.pos+1 : i])
				s.pos = i + 1
				return v, true
			case c == '\\' || c >= 0x80:
				s.esc = true
				return s.slowStr(i)
			case c < 0x20:
				return "", false
			}
		}
		var ok bool
		if i, ok = s.more(i); !ok {
			return "", false
		}
	}
}

// slowStr finishes a string with escapes or non-ASCII bytes (from its
// opening quote at pos, i its first such byte) through encoding/json, for
// its exact rules on escapes, surrogates and invalid UTF-8.
func (s *scanner) slowStr(i int) (string, bool) {
	for ; ; i++ {
		var ok bool
		if i, ok = s.more(i); !ok {
			return "", false
		}
		switch c := s.data[i]; {
		case c == '\\':
			i++ // the escaped byte is not the end
			if i, ok = s.more(i); !ok {
				return "", false
			}
		case c == '"':
			var v string
			ok := json.Unmarshal(s.data[s.pos:i+1], &v) == nil
			s.pos = i + 1
			return v, ok
		case c < 0x20:
			return "", false
		}
	}
}

// rawNumber reads a number token in JSON's grammar and returns its bytes
// (valid until the next read).
func (s *scanner) rawNumber() ([]byte, bool) {
	s.skipSpace()
	d, i := s.data, s.pos
	ok := false
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		i = digits(d, i)
	default:
		goto end
	}
	if i < len(d) && d[i] == '.' {
		j := digits(d, i+1)
		if j == i+1 {
			i = j
			goto end
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
			i = j
			goto end
		}
		i = j
	}
	ok = true
end:
	if i == len(d) && s.r != nil { // the window may have cut the token
		if _, more := s.more(i); more {
			return s.rawNumber()
		}
	}
	if !ok {
		return nil, false
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
	if f, ok := exactDecimal(tok); ok {
		return f, true
	}
	// ParseFloat keeps no reference to its argument (its errors copy it).
	f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(tok), len(tok)), 64)
	return f, err == nil
}

// exactPow10 holds the powers of ten a float64 represents exactly that
// exactDecimal divides by.
var exactPow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// exactDecimal parses a number token without an exponent whose digits
// (point left out) number at most 15, the common sample: they spell an
// integer n < 2^52, exact in a float64, and n / 10^k for its k fractional
// digits divides two exact values, so the division's one rounding is the
// correctly rounded value ParseFloat returns (strconv's own fast path,
// atof64exact, computes it so). rawNumber has checked the grammar.
func exactDecimal(tok []byte) (float64, bool) {
	i, neg := 0, tok[0] == '-'
	if neg {
		i = 1
	}
	var n uint64
	digits, frac := 0, -1 // frac: digits after the point, -1 before it
	for ; i < len(tok); i++ {
		switch c := tok[i]; {
		case c >= '0' && c <= '9':
			n = n*10 + uint64(c-'0')
			digits++
			if frac >= 0 {
				frac++
			}
		case c == '.':
			frac = 0
		default: // an exponent
			return 0, false
		}
	}
	if digits > 15 {
		return 0, false
	}
	f := float64(n) / exactPow10[max(frac, 0)]
	if neg {
		f = -f
	}
	return f, true
}

// boolean reads true or false.
func (s *scanner) boolean() (bool, bool) {
	s.skipSpace()
	for len(s.data)-s.pos < len("false") && s.fill() {
	}
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

// slabCap is the size of the next slab: slabSize, or no more than the
// samples left in a document held whole (each takes two bytes at least),
// so that loading a small document does not allocate 128 KiB.
func (s *scanner) slabCap() int {
	if s.r != nil {
		return slabSize
	}
	return min(slabSize, (len(s.data)-s.pos)/2+1)
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
			next := make([]float64, n, max(s.slabCap(), 2*n))
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
		k := string(key)
		v, ok := s.str()
		m[k] = v
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
		k := string(key)
		v, ok := s.number()
		m[k] = v
		return ok
	})
	return m, ok
}

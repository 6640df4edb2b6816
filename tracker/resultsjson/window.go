package resultsjson

import (
	"errors"
	"io"
	"unicode/utf8"
)

// The window of a streamed scanner: the part of the input read and not yet
// dropped. Tokens are read from it in place; one that reaches its end is
// kept and moved to its front as more is read (fill, more).

// windowSize is the size of a streamed scanner's window; a token longer
// than the window grows it.
const windowSize = 64 << 10

var errNotUTF8 = errors.New("not UTF-8")

// newStreamScanner returns a scanner that reads r through a window of size
// bytes.
func newStreamScanner(r io.Reader, size int) *scanner {
	return &scanner{r: r, data: make([]byte, 0, max(size, 1))}
}

// fill reads more input after the window, keeping data[pos:] (the token
// being read starts there) and moving it to the front, so that pos becomes
// 0. It reports whether more input came.
func (s *scanner) fill() bool {
	if s.r == nil || s.err != nil {
		return false
	}
	keep := len(s.data) - s.pos
	buf := s.data[:cap(s.data)]
	if keep == len(buf) {
		buf = make([]byte, 2*len(buf))
	}
	copy(buf, s.data[s.pos:])
	s.valid = max(s.valid-s.pos, 0)
	s.off += int64(s.pos)
	s.pos = 0
	n, err := io.ReadAtLeast(s.r, buf[keep:], 1)
	s.data = buf[:keep+n]
	if err != nil {
		s.err = err
	}
	return s.checkUTF8() && n > 0
}

// checkUTF8 checks the bytes read since the last call, leaving an
// incomplete character at the end for the next read. Decoding would turn
// bytes that are not UTF-8 into U+FFFD; Parse refuses them, naming where.
func (s *scanner) checkUTF8() bool {
	end := len(s.data)
	if s.err == nil {
		for i := end - 1; i >= max(s.valid, end-utf8.UTFMax+1); i-- {
			if utf8.RuneStart(s.data[i]) {
				if !utf8.FullRune(s.data[i:end]) {
					end = i
				}
				break
			}
		}
	}
	if !utf8.Valid(s.data[s.valid:end]) {
		s.err = errNotUTF8
		return false
	}
	s.valid = end
	return true
}

// atEnd reports whether the whole input has been read and consumed.
func (s *scanner) atEnd() bool {
	return s.peek() == 0 && s.pos == len(s.data) && (s.r == nil || s.err == io.EOF)
}

// more makes data[i] readable for a token that starts at pos, refilling the
// window (which moves the token to its front); it returns i's new value and
// false at the end of the input.
func (s *scanner) more(i int) (int, bool) {
	for i >= len(s.data) {
		start := s.pos
		ok := s.fill()
		i -= start - s.pos // fill moved the token to the front, or left it
		if !ok {
			return i, false
		}
	}
	return i, true
}

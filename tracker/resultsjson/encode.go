package resultsjson

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/perfgate/perfgate/tracker/model"
)

// appendJSON appends the JSON of b to dst, exactly the bytes of
// json.Marshal(b), and returns the extended slice. WriteJSON and the
// content hash encode a run a benchmark at a time through it, so a byte
// of difference from json.Marshal would change every stored content hash:
// FuzzAppendJSON holds it to json.Marshal.
//
// It is written out by hand, without reflection: encoding/json spends most
// of a benchmark's time finding its encoders, and strconv most of the rest
// searching for digits that shortDecimal finds with a multiplication.
func appendJSON(dst []byte, b *model.Benchmark) ([]byte, error) {
	start := len(dst)
	dst = append(dst, `{"suite":`...)
	dst = appendString(dst, b.Suite)
	dst = append(dst, `,"name":`...)
	dst = appendString(dst, b.Name)
	if len(b.Params) > 0 {
		dst = append(dst, `,"params":`...)
		dst = appendStringMap(dst, b.Params)
	}
	dst = append(dst, `,"unit":`...)
	dst = appendString(dst, b.Unit)
	dst = append(dst, `,"better":`...)
	dst = appendString(dst, string(b.Better))
	dst = append(dst, `,"samples":`...)
	if b.Samples == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i, v := range b.Samples {
			if i > 0 {
				dst = append(dst, ',')
			}
			var ok bool
			if dst, ok = appendFloat(dst, v); !ok {
				return marshal(dst[:start], b)
			}
		}
		dst = append(dst, ']')
	}
	if len(b.Metrics) > 0 {
		dst = append(dst, `,"metrics":`...)
		var ok bool
		if dst, ok = appendFloatMap(dst, b.Metrics); !ok {
			return marshal(dst[:start], b)
		}
	}
	if len(b.Info) > 0 {
		dst = append(dst, `,"info":`...)
		dst = appendStringMap(dst, b.Info)
	}
	if b.SummaryOnly {
		dst = append(dst, `,"summary_only":true`...)
	}
	if b.Error != "" {
		dst = append(dst, `,"error":`...)
		dst = appendString(dst, b.Error)
	}
	return append(dst, '}'), nil
}

// marshal appends json.Marshal(b) to dst, or returns dst and its error:
// appendJSON leaves a benchmark with a NaN or an infinity, which JSON
// cannot hold, to it for its error (a *json.UnsupportedValueError).
func marshal(dst []byte, b *model.Benchmark) ([]byte, error) {
	p, err := json.Marshal(b)
	if err != nil {
		return dst, err
	}
	return append(dst, p...), nil
}

// appendFloat appends f as encoding/json formats a float64: strconv's
// shortest 'f', or 'e' outside [1e-6, 1e21) with the exponent's leading
// zero dropped (1e-07 → 1e-7). It appends nothing and returns false for a
// NaN or an infinity.
func appendFloat(dst []byte, f float64) ([]byte, bool) {
	if n, k, ok := shortDecimal(f); ok {
		return appendDecimal(dst, f < 0, n, k), true
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return dst, false
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst, true
}

// pow10 holds the powers of ten that shortDecimal tries, all exact.
var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8}

// shortDecimal finds the common samples' decimals (1234.5, 0.25, 812)
// without strconv's general search: it returns n and k with |f| = n/10^k
// exactly when that decimal, n without trailing zeros, is what strconv's
// shortest formatting of f prints, and ok false when it cannot tell.
//
// Why that is strconv's answer: n/10^k (n < 2^53, 10^k exact) divided in
// float64 is the correctly rounded quotient, as parsing the decimal is, so
// the decimal parses back to f. And the bound on n keeps the interval of
// decimals that parse back to f (at most an ulp of f wide, an ulp at most
// |f|/2^52) narrower than 10^-(k+1): the interval holds no other decimal of
// k+1 or fewer fractional digits, so every other decimal in it has more
// significant digits than n, and n is the one shortest one.
func shortDecimal(f float64) (n uint64, k int, ok bool) {
	abs := math.Abs(f)
	if !(abs >= 1e-6 && abs < 1e14) { // NaN, infinities, zero and 'e' formats too
		return 0, 0, false
	}
	for k = range len(pow10) {
		x := abs * pow10[k]
		if x >= 1e14 {
			return 0, 0, false
		}
		if x == math.Trunc(x) {
			n = uint64(x)
			if float64(n)/pow10[k] != abs || (k > 0 && n%10 == 0) {
				return 0, 0, false
			}
			return n, k, true
		}
	}
	return 0, 0, false
}

// appendDecimal appends n/10^k in %f form, negated when neg: its digits,
// last first, into one buffer appended at once.
func appendDecimal(dst []byte, neg bool, n uint64, k int) []byte {
	var buf [32]byte // n < 1e14 and k < 9: 24 bytes at most
	i := len(buf)
	for range k {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	if k > 0 {
		i--
		buf[i] = '.'
	}
	for {
		i--
		buf[i] = byte('0' + n%10)
		if n /= 10; n == 0 {
			break
		}
	}
	if neg {
		i--
		buf[i] = '-'
	}
	return append(dst, buf[i:]...)
}

func appendStringMap(dst []byte, m map[string]string) []byte {
	dst, _ = appendMap(dst, m, func(dst []byte, v string) ([]byte, bool) { return appendString(dst, v), true })
	return dst
}

// appendFloatMap appends m as an object, or returns false for a value that
// is a NaN or an infinity.
func appendFloatMap(dst []byte, m map[string]float64) ([]byte, bool) {
	return appendMap(dst, m, appendFloat)
}

// appendMap appends m as an object, its keys in order, each value by
// appendValue, or returns false for a value appendValue refuses.
func appendMap[V any](dst []byte, m map[string]V, appendValue func([]byte, V) ([]byte, bool)) ([]byte, bool) {
	var buf [16]string
	dst = append(dst, '{')
	for i, k := range model.SortedKeysInto(buf[:], m) {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, k)
		dst = append(dst, ':')
		var ok bool
		if dst, ok = appendValue(dst, m[k]); !ok {
			return dst, false
		}
	}
	return append(dst, '}'), true
}

// plain[c] says that the ASCII byte c stands for itself in encoding/json's
// output with HTML escaping on: printable, and none of " \ < > &.
var plain = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

const hexDigits = "0123456789abcdef"

// appendString appends s quoted as encoding/json quotes a string with
// HTML escaping on (json.Marshal's default): \" \\ \b \f \n \r \t, other
// control bytes and < > & as \u00XX, U+2028 and U+2029 as \u2028 and
// \u2029, and each byte of invalid UTF-8 as \ufffd.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if plain[c] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

package resultsjson

import (
	"bytes"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// streamDocs are the documents of the fast-path and invalid cases, and
// documents with multi-byte and invalid UTF-8 where a read may split them.
func streamDocs(t *testing.T) map[string][]byte {
	fixture := mustRead("testdata/valid.json")
	docs := map[string][]byte{}
	for _, tc := range fastCases {
		docs[tc.name] = []byte(tc.edit(fixture))
	}
	for _, tc := range invalidCases {
		data := []byte(tc.raw)
		if tc.raw == "" {
			data = mutate(t, tc.edit)
		}
		docs["invalid/"+tc.name] = data
	}
	for name, s := range map[string]string{"é": "é", "€": "€", "emoji": "😀", "xff": "\xff", "truncated é": "\xc3", "truncated emoji": "\xf0\x9f\x98"} {
		docs["utf8/"+name] = []byte(strings.Replace(fixture, `"copy/bandwidth"`, `"copy/`+s+`"`, 1))
		docs["utf8/space "+name] = []byte(strings.Replace(fixture, "\n", "\n"+s, 1))
		docs["utf8/end "+name] = []byte(fixture + s)
	}
	return docs
}

// TestDecodeStreamAgrees checks that decoding through a window, in reads
// of any size, accepts exactly what decodeFast accepts over the whole
// input, decoded to the same value: windows of one byte upwards make every
// token cross a refill and outgrow the window.
func TestDecodeStreamAgrees(t *testing.T) {
	for name, data := range streamDocs(t) {
		t.Run(name, func(t *testing.T) {
			want, wantOK := decodeFast(data)
			if CheckUTF8("x", data) != nil { // Parse refuses it before decodeFast
				wantOK, want = false, nil
			}
			for _, window := range []int{1, 2, 3, 7, 64, windowSize} {
				readers := map[string]io.Reader{
					"whole":    bytes.NewReader(data),
					"one byte": iotest.OneByteReader(bytes.NewReader(data)),
					"half":     iotest.HalfReader(bytes.NewReader(data)),
					"data+EOF": iotest.DataErrReader(bytes.NewReader(data)),
				}
				for rname, r := range readers {
					got, ok, err := decodeStream(r, window)
					if err != nil || ok != wantOK || (ok && !reflect.DeepEqual(got, want)) {
						t.Fatalf("window %d, %s reads: ok %v, err %v; decodeFast: ok %v", window, rname, ok, err, wantOK)
					}
				}
			}
		})
	}
}

// TestLoadMatchesParse checks that Load, which streams a valid file,
// returns what Parse returns for the file's bytes: the same value, or the
// same error, message and path byte for byte.
func TestLoadMatchesParse(t *testing.T) {
	dir := t.TempDir()
	for name, data := range streamDocs(t) {
		t.Run(name, func(t *testing.T) {
			path := writeFile(t, dir, "run.json", data)
			want, wantErr := Parse(path, data)
			got, err := Load(path)
			if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
				t.Fatalf("Load: %v\nParse: %v", err, wantErr)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("Load decodes differently from Parse")
			}
		})
	}
}

// TestLoadReadError checks that a read that fails midway is reported as
// such, not as a document problem.
func TestLoadReadError(t *testing.T) {
	data := []byte(mustRead("testdata/valid.json"))
	_, ok, err := decodeStream(iotest.TimeoutReader(iotest.OneByteReader(bytes.NewReader(data))), 64)
	if ok || err != iotest.ErrTimeout {
		t.Fatalf("decodeStream = ok %v, err %v; want %v", ok, err, iotest.ErrTimeout)
	}
}

package trend

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestWriteRightAlignedIsTabwriter: the table writer prints what
// text/tabwriter prints for the same cells, multi-byte runes, invalid
// UTF-8, empty cells and the bytes tabwriter treats specially included.
func TestWriteRightAlignedIsTabwriter(t *testing.T) {
	pieces := []string{"", "a", "2026-03-01 09:00Z", "1.234 µs", "+5.0% regression", "\xff\xfe", "\xfe", "日本", "x\ty", "l1\nl2", "v\vw", "f\fg", "  "}
	rng := rand.New(rand.NewPCG(81, 82))
	for i := range 500 {
		rows := make([][]string, 1+rng.IntN(6))
		for r := range rows {
			rows[r] = make([]string, 7)
			for c := range rows[r] {
				p := pieces[rng.IntN(len(pieces))]
				if i%2 == 0 && len(p) > 0 && (p[0] == 'x' || p[0] == 'l' || p[0] == 'v' || p[0] == 'f' || p[0] == 0xff) {
					p = "plain" // half the tables without control characters
				}
				rows[r][c] = p
			}
		}
		var got, want bytes.Buffer
		if err := writeRightAligned(&got, rows); err != nil {
			t.Fatal(err)
		}
		if err := writeTabwriter(&want, rows); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("rows %q:\ngot\n%q\ntabwriter\n%q", rows, got.String(), want.String())
		}
	}
}

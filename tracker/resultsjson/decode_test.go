package resultsjson

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

// fastCases are documents around the edges of what the fast path handles.
// plain marks those it must decode itself (the others may fall back).
var fastCases = []struct {
	name  string
	edit  func(string) string
	plain bool
}{
	{"fixture", func(s string) string { return s }, true},
	{"compact", func(s string) string { return strings.NewReplacer("\n", "", "  ", "").Replace(s) }, true},
	{"tabs and CRs", func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n\t") }, true},
	{"escaped string", func(s string) string { return strings.Replace(s, `"copy/bandwidth"`, `"copy\/band\u00e9\"w"`, 1) }, true},
	{"non-ASCII string", func(s string) string { return strings.Replace(s, `"copy/bandwidth"`, `"copy/bändwidth"`, 1) }, true},
	{"invalid UTF-8", func(s string) string { return strings.Replace(s, `"copy/bandwidth"`, "\"copy/\xff\xfe\"", 1) }, true},
	{"surrogate pair", func(s string) string { return strings.Replace(s, `"copy/bandwidth"`, `"\ud83d\ude00"`, 1) }, true},
	{"lone surrogate", func(s string) string { return strings.Replace(s, `"copy/bandwidth"`, `"\ud83d"`, 1) }, true},
	{"exponents", func(s string) string { return strings.Replace(s, "51236.0", "5.1236E+4", 1) }, true},
	{"negative zero time sample", func(s string) string { return strings.Replace(s, "51236.0", "-0", 1) }, true},
	{"negative rate sample", func(s string) string { return strings.Replace(s, "3299.0", "-3299.0", 1) }, true},
	{"empty env", func(s string) string { return strings.Replace(s, `"env": {"gpu"`, `"env": {}, "x": {"gpu"`, 1) }, false},
	{"no pr", func(s string) string { return strings.Replace(s, `"pr": 123,`, ``, 1) }, true},
	{"pr as float", func(s string) string { return strings.Replace(s, `"pr": 123`, `"pr": 123.0`, 1) }, false},
	{"pr exponent", func(s string) string { return strings.Replace(s, `"pr": 123`, `"pr": 1e2`, 1) }, false},
	{"pr huge", func(s string) string { return strings.Replace(s, `"pr": 123`, `"pr": 99999999999999999999`, 1) }, false},
	{"null pr", func(s string) string { return strings.Replace(s, `"pr": 123`, `"pr": null`, 1) }, false},
	{"null params", func(s string) string {
		return strings.Replace(s, `"params": {"dtype"`, `"params": null, "x": {"dtype"`, 1)
	}, false},
	{"null error", func(s string) string { return strings.Replace(s, `"error": "CUDA`, `"error": null, "x": "CUDA`, 1) }, false},
	{"null env value", func(s string) string { return strings.Replace(s, `"cuda": "13.0"`, `"cuda": null`, 1) }, false},
	{"null metric", func(s string) string { return strings.Replace(s, `3842.1`, `null`, 1) }, false},
	{"case-folded key", func(s string) string { return strings.Replace(s, `"suite": "memory"`, `"Suite": "memory"`, 1) }, false},
	{"escaped key", func(s string) string { return strings.Replace(s, `"suite": "memory"`, `"sui\u0074e": "memory"`, 1) }, false},
	{"repeated key", func(s string) string {
		return strings.Replace(s, `"suite": "memory"`, `"suite": "x", "suite": "memory"`, 1)
	}, false},
	{"repeated env key", func(s string) string { return strings.Replace(s, `"cuda": "13.0"`, `"cuda": "12", "cuda": "13.0"`, 1) }, false},
	{"empty group", func(s string) string { return strings.Replace(s, `"pr": 123,`, `"pr": 123, "group": "",`, 1) }, true},
	{"time with offset", func(s string) string { return strings.Replace(s, `10:15:00Z`, `10:15:00.123456789+02:00`, 1) }, true},
	{"time without zone", func(s string) string { return strings.Replace(s, `10:15:00Z`, `10:15:00`, 1) }, false},
	{"summary_only false", func(s string) string { return strings.Replace(s, `"summary_only": true`, `"summary_only": false`, 1) }, true},
	{"leading zero", func(s string) string { return strings.Replace(s, "51236.0", "051236.0", 1) }, false},
	{"bare dot", func(s string) string { return strings.Replace(s, "51236.0", "51236.", 1) }, false},
	{"huge number", func(s string) string { return strings.Replace(s, "51236.0", "1e400", 1) }, false},
	{"tiny number", func(s string) string { return strings.Replace(s, "51236.0", "1e-400", 1) }, false},
	{"trailing comma", func(s string) string { return strings.Replace(s, "51236.0,", "51236.0,,", 1) }, false},
	{"trailing data", func(s string) string { return s + "{}" }, false},
	{"trailing space", func(s string) string { return s + " \n\t" }, true},
	{"control char in string", func(s string) string { return strings.Replace(s, `"copy/bandwidth"`, "\"copy\x01\"", 1) }, false},
	{"empty benchmarks", func(s string) string { return s[:strings.Index(s, `"benchmarks"`)] + `"benchmarks": []}` }, true},
	{"truncated", func(s string) string { return s[:len(s)/2] }, false},
}

// TestDecodeFastAgrees checks that the fast path accepts only what the
// general loader accepts, decoded to the same value, and that it does not
// fall back on the plain documents it is for.
func TestDecodeFastAgrees(t *testing.T) {
	fixture := mustRead("testdata/valid.json")
	for _, tc := range fastCases {
		t.Run(tc.name, func(t *testing.T) { checkFastAgrees(t, []byte(tc.edit(fixture)), tc.plain) })
	}
	for _, tc := range invalidCases {
		t.Run("invalid/"+tc.name, func(t *testing.T) {
			data := []byte(tc.raw)
			if tc.raw == "" {
				data = mutate(t, tc.edit)
			}
			checkFastAgrees(t, data, false)
		})
	}
}

func checkFastAgrees(t *testing.T, data []byte, plain bool) {
	t.Helper()
	fast, ok := decodeFast(data)
	slow, err := parseTree("x.json", data)
	switch {
	case ok && err != nil:
		t.Fatalf("fast path accepts a document the loader rejects: %v", err)
	case ok && !reflect.DeepEqual(fast, slow):
		t.Fatalf("fast path decodes differently:\n%+v\nvs\n%+v", fast, slow)
	case !ok && plain:
		t.Fatalf("fast path falls back on a plain document (loader: %v)", err)
	}
}

// FuzzDecodeFast: whatever the input, the fast path never accepts what the
// general loader rejects and never decodes differently.
func FuzzDecodeFast(f *testing.F) {
	fixture := mustRead("testdata/valid.json")
	for _, tc := range fastCases {
		f.Add([]byte(tc.edit(fixture)))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, ok := decodeFast(data)
		if !ok {
			return
		}
		slow, err := parseTree("x.json", data)
		if err != nil {
			t.Fatalf("fast path accepts a document the loader rejects: %v", err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("fast path decodes differently:\n%+v\nvs\n%+v", fast, slow)
		}
	})
}

// TestCommittedResultsDecodeFast: what producers write takes the fast path.
func TestCommittedResultsDecodeFast(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "examples", "*", "*.json"))
	more, _ := filepath.Glob(filepath.Join("..", "..", "examples", "*.json"))
	checked := 0
	for _, f := range append(files, more...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), `"`+model.Schema+`"`) {
			continue
		}
		checked++
		if _, ok := decodeFast(data); !ok {
			_, err := parseTree(f, data)
			t.Errorf("%s: fast path falls back (loader: %v)", f, err)
		}
	}
	if checked == 0 {
		t.Fatal("no committed results files found")
	}
}

// synthetic returns an encoded results document of n benchmarks with k
// samples each.
func synthetic(n, k int) []byte {
	var b strings.Builder
	b.WriteString(`{"schema":"perfgate.results/v1","run":{"id":"r1","repo":"a/b","commit":"` + strings.Repeat("a", 40) +
		`","branch":"main","event":"push","testbed":"t","started_at":"2026-01-02T03:04:05Z","env":{"gpu":"G"}},"benchmarks":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"suite":"s","name":"bench/%d","params":{"n":"%d"},"unit":"ns","better":"lower","samples":[`, i, i)
		for j := range k {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%d.%d", 1000+i+j, j%10)
		}
		b.WriteString(`]}`)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// TestParseAllocsPerSample is a scaling test: loading allocates per
// benchmark, never per sample (no per-sample path, tree node or boxed
// number), so a hundred times the samples costs about the same allocations.
func TestParseAllocsPerSample(t *testing.T) {
	small, large := synthetic(200, 10), synthetic(200, 1000)
	allocs := func(data []byte) float64 {
		return testing.AllocsPerRun(5, func() {
			if _, err := Parse("x.json", data); err != nil {
				t.Fatal(err)
			}
		})
	}
	a, b := allocs(small), allocs(large)
	// 200k samples in 16k-sample slabs add ~13 allocations.
	if b > a+50 {
		t.Errorf("Parse allocates %v times for 200×1000 samples, %v for 200×10: allocations grow with the samples", b, a)
	}
	if per := a / 200; per > 20 {
		t.Errorf("Parse allocates %.1f times per benchmark, want ≤ 20", per)
	}
}

func BenchmarkParse(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		data := synthetic(n, 100)
		b.Run(fmt.Sprintf("benchmarks=%d/samples=100", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse("x.json", data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	data := synthetic(10000, 100)
	path := writeFile(b, b.TempDir(), "run.json", data)
	b.Run("load-file/benchmarks=10000/samples=100", func(b *testing.B) { // streamed (Load), what commands do
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Load(path); err != nil {
				b.Fatal(err)
			}
		}
	})
	data = synthetic(1000, 100)
	b.Run("general-loader/benchmarks=1000/samples=100", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := parseTree("x.json", data); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestExactDecimal checks the decimal fast path against strconv.ParseFloat
// bit for bit: short decimals of every length up to and past its 15 digits,
// leading and trailing zeros, negatives and -0, and tokens it leaves to
// ParseFloat (exponents, 16 digits and more).
func TestExactDecimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	toks := []string{"0", "-0", "0.0", "-0.000", "1", "9", "0.1", "0.3", "1234.5", "999999999999999", "99999999999999.9",
		"0.000000000000001", "9999999999999999", "4503599627370495", "4503599627370496", "1e5", "1.5E-3", "0.5"}
	for range 200000 {
		digits := 1 + rng.IntN(18)
		b := []byte{}
		if rng.IntN(4) == 0 {
			b = append(b, '-')
		}
		point := rng.IntN(digits + 1)
		for d := range digits {
			if d == point && d > 0 {
				b = append(b, '.')
			}
			c := byte('0' + rng.IntN(10))
			if d == 0 && (point > 1 || point == digits) && c == '0' {
				c = '1' // no leading zero before more integer digits
			}
			b = append(b, c)
		}
		toks = append(toks, string(b))
	}
	fast := 0
	for _, tok := range toks {
		want, err := strconv.ParseFloat(tok, 64)
		if err != nil {
			t.Fatalf("ParseFloat(%q): %v", tok, err)
		}
		got, ok := exactDecimal([]byte(tok))
		if !ok {
			continue
		}
		fast++
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("exactDecimal(%q) = %v (%#x), ParseFloat = %v (%#x)", tok, got, math.Float64bits(got), want, math.Float64bits(want))
		}
	}
	if fast < len(toks)/2 {
		t.Errorf("the fast path took %d of %d tokens", fast, len(toks))
	}
}

package resultsjson

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/perfgate/perfgate/tracker/model"
)

// checkAppendJSON fails t unless appendJSON(dst, b) appends exactly
// json.Marshal(b), or fails as it does.
func checkAppendJSON(t *testing.T, b *model.Benchmark) {
	t.Helper()
	want, werr := json.Marshal(b)
	prefix := []byte("prefix,")
	got, err := appendJSON(prefix, b)
	if (err != nil) != (werr != nil) {
		t.Fatalf("AppendJSON error %v; json.Marshal error %v", err, werr)
	}
	if werr != nil {
		var u *json.UnsupportedValueError
		if !errors.As(err, &u) || err.Error() != werr.Error() {
			t.Errorf("AppendJSON error %q (%T); want json.Marshal's %q", err, err, werr)
		}
		if string(got) != string(prefix) {
			t.Errorf("AppendJSON failed but changed dst to %q", got)
		}
		return
	}
	if !bytes.Equal(got[len(prefix):], want) || string(got[:len(prefix)]) != string(prefix) {
		t.Errorf("AppendJSON:\n got %s\nwant %s%s", got, prefix, want)
	}
}

func TestAppendJSON(t *testing.T) {
	full := model.Benchmark{
		Suite: "gemm", Name: "BenchmarkGemm/n=4096", Unit: "us", Better: model.Higher,
		Params:      map[string]string{"n": "4096", "dtype": "fp16", "": "empty key"},
		Samples:     []float64{1.5, 2, 1000.25},
		Metrics:     map[string]float64{"tflops": 734.2, "pct_peak": 0.74},
		Info:        map[string]string{"ptx": "abc", "mode": "events"},
		SummaryOnly: true,
		Error:       "none",
	}
	for _, tc := range []struct {
		name string
		b    model.Benchmark
	}{
		{"zero", model.Benchmark{}},
		{"full", full},
		{"nil samples", model.Benchmark{Suite: "s", Name: "n", Samples: nil}},
		{"empty samples", model.Benchmark{Suite: "s", Name: "n", Samples: []float64{}}},
		{"empty maps", model.Benchmark{Params: map[string]string{}, Metrics: map[string]float64{}, Info: map[string]string{}}},
		{"html and separators", model.Benchmark{Name: "<a href=\"x\">&amp;</a> \u2028\u2029 \\ /"}},
		{"control bytes", model.Benchmark{Name: "\x00\x01\b\f\n\r\t\x1f\x7f"}},
		{"invalid UTF-8", model.Benchmark{Name: "a\xffb\xc3(\xe2\x82 \xed\xa0\x80 \xf4\x90\x80\x80 é€𝄞"}},
		{"map keys escaped", model.Benchmark{Params: map[string]string{"<k>": "&", "\xff": "\u2028", "a\"b": "\x01"}}},
		{"map order is byte order", model.Benchmark{Metrics: map[string]float64{"b": 1, "B": 2, "a": 3, "é": 4, "aa": 5, "": 6}}},
		{"floats", model.Benchmark{Samples: []float64{
			0, math.Copysign(0, -1), 1, -1, 0.1, -2.5, 1e-6, 9.99999e-7, 1e-7, 1.5e-300,
			5e-324, math.SmallestNonzeroFloat64, 2.2250738585072014e-308, 1e20, 1e21, 1.0000000000000001e21,
			-1e21, 1e100, math.MaxFloat64, -math.MaxFloat64, 1 << 53, 1<<53 - 1, 1<<53 + 2,
			-(1<<53 - 1), 1 << 60, 123456789012345678, 1e15 + 0.5, 0.30000000000000004, 1.0 / 3,
			float64(float32(0.1)), 1e-5, 123e-10, 4.5e-8,
		}}},
		{"huge metric", model.Benchmark{Metrics: map[string]float64{"x": 1e300, "y": -1e-300}}},
		{"NaN sample", model.Benchmark{Samples: []float64{1, math.NaN()}}},
		{"+Inf sample", model.Benchmark{Samples: []float64{math.Inf(1)}}},
		{"-Inf metric", model.Benchmark{Metrics: map[string]float64{"x": math.Inf(-1)}}},
		{"many keys", model.Benchmark{Info: manyKeys(40)}},
	} {
		t.Run(tc.name, func(t *testing.T) { checkAppendJSON(t, &tc.b) })
	}
}

// TestAppendFloat holds appendFloat, shortDecimal's shortcut included, to
// json.Marshal over decimals of up to 16 digits with 0 to 10 fractional
// digits (most taking the shortcut, some just past its bounds), their
// neighbours an ulp away, and random bit patterns.
func TestAppendFloat(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var vals []float64
	for range 50000 {
		n := rng.Uint64N(uint64(math.Pow10(1 + rng.IntN(16))))
		f := float64(n) / math.Pow10(rng.IntN(11))
		if rng.IntN(2) == 0 {
			f = -f
		}
		vals = append(vals, f, math.Nextafter(f, math.Inf(1)), math.Nextafter(f, math.Inf(-1)),
			math.Float64frombits(rng.Uint64()), float64(float32(f)))
	}
	for _, f := range vals {
		want, err := json.Marshal(f)
		got, ok := appendFloat(nil, f)
		if (err == nil) != ok || err == nil && string(got) != string(want) {
			t.Fatalf("appendFloat(%b) = %s, %v; json.Marshal: %s, %v", f, got, ok, want, err)
		}
	}
}

func manyKeys(n int) map[string]string {
	m := make(map[string]string, n)
	for i := range n {
		m[fmt.Sprintf("k%03d", (i*7)%n)] = fmt.Sprint(i)
	}
	return m
}

// FuzzAppendJSON holds AppendJSON to json.Marshal byte for byte over
// arbitrary strings (invalid UTF-8 included), map contents and float bits
// (subnormals, NaNs, infinities, -0).
func FuzzAppendJSON(f *testing.F) {
	f.Add("s", "n", "k", "v", "ns", "lower", []byte{0, 0, 0, 0, 0, 0, 0xf0, 0x3f}, true)
	f.Add("<&>", "\u2028\xff", "", "\x00\x1f", "µs", "", []byte{1, 0, 0, 0, 0, 0, 0xf8, 0x7f}, false)
	f.Add("", "", "a", "b", "", "higher", []byte{0, 0, 0, 0, 0, 0, 0, 0x80, 1, 0, 0, 0, 0, 0, 0, 0}, false)
	f.Fuzz(func(t *testing.T, suite, name, key, value, unit, errText string, bits []byte, summary bool) {
		var samples []float64
		for len(bits) >= 8 {
			u := binary.LittleEndian.Uint64(bits)
			// The bits as a float64, and as a short decimal (n/10^k, the
			// samples that shortDecimal formats) either side of its bounds.
			d := float64((u>>8)%1e15) / math.Pow10(int(u&0xff)%12)
			samples = append(samples, math.Float64frombits(u), d, -d)
			bits = bits[8:]
		}
		if len(bits) > 0 && bits[0]&1 == 1 {
			samples = []float64{} // with the odd byte left: empty, not nil
		}
		b := model.Benchmark{
			Suite: suite, Name: name, Unit: unit, Better: model.Better(errText), Samples: samples,
			SummaryOnly: summary, Error: errText,
		}
		if key != "" || value != "" {
			b.Params = map[string]string{key: value, value: key, name: unit}
			b.Info = map[string]string{unit: suite}
		}
		if len(samples) > 0 {
			b.Metrics = map[string]float64{key: samples[0], value: samples[len(samples)-1]}
		}
		checkAppendJSON(t, &b)
	})
}

// TestWriteJSONIsMarshal: a whole run written by WriteJSON, benchmarks
// through AppendJSON, is json.Marshal of it, byte for byte.
func TestWriteJSONIsMarshal(t *testing.T) {
	r := mustParse(t, synthetic(300, 20))
	r.Benchmarks[3].Metrics = map[string]float64{"gb/s": 812.5, "pct": 1e-9}
	r.Benchmarks[4].Info = map[string]string{"stop": "<time> & \u2029"}
	r.Benchmarks[5].Samples = nil
	r.Benchmarks[6].Samples = []float64{}
	r.Benchmarks[7].Error = "out of memory"
	r.Benchmarks[7].SummaryOnly = true
	fixture, err := Load("testdata/valid.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []*model.Results{r, r.Canonical(), fixture} {
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := WriteJSON(&got, r); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("WriteJSON differs from json.Marshal:\n got %.300s\nwant %.300s", got.Bytes(), want)
		}
	}
}

// TestEncodeIsIndentedMarshal: Encode, which writes a benchmark at a
// time, writes the bytes of json.Encoder with SetIndent("", "  ").
func TestEncodeIsIndentedMarshal(t *testing.T) {
	r := mustParse(t, synthetic(50, 7))
	r.Benchmarks[3].Metrics = map[string]float64{"gb/s": 812.5, "pct": 1e-9}
	r.Benchmarks[4].Info = map[string]string{"stop": "<time> & \u2029"}
	r.Benchmarks[5].Samples = nil
	r.Benchmarks[6].Samples = []float64{}
	fixture, err := Load("testdata/valid.json")
	if err != nil {
		t.Fatal(err)
	}
	none := *fixture
	none.Benchmarks = nil
	empty := none
	empty.Benchmarks = []model.Benchmark{}
	for _, r := range []*model.Results{r, fixture, &none, &empty} {
		var want, got bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
		if err := Encode(&got, r); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("Encode differs from the indented json.Encoder:\n got %.400s\nwant %.400s", got.Bytes(), want.Bytes())
		}
	}
}

// BenchmarkWriteJSON encodes a run of 10,000 benchmarks × 100 samples, as
// record does to store it (WriteJSON, here to io.Discard) and to hash it
// (ContentHash: a canonical copy, the encoding and SHA-256).
func BenchmarkWriteJSON(b *testing.B) {
	data := synthetic(10000, 100)
	r, err := Parse("x.json", data)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("WriteJSON/benchmarks=10000/samples=100", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if err := WriteJSON(io.Discard, r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ContentHash/benchmarks=10000/samples=100", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ContentHash(r); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestEncodeStreams: Encode allocates a benchmark's worth at a time, not
// the document (issue 28, item 14: perfgate ingest of a 100 MB file held
// its indented encoding whole, 1.1 GB).
func TestEncodeStreams(t *testing.T) {
	r := mustParse(t, synthetic(200, 5000))
	var n countWriter
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := Encode(&n, r); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("wrote %d bytes, allocated %d", n, alloc)
	if alloc > uint64(n)/8 {
		t.Errorf("Encode allocated %d bytes to write %d", alloc, n)
	}
}

// A countWriter counts the bytes written to it.
type countWriter int

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }

// TestSortKeys: the rank sort of a few keys sorts as slices.Sort does.
func TestSortKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 40 {
		m := map[string]int{}
		for len(m) < n {
			m[fmt.Sprint(rng.IntN(1000))] = 1
		}
		got := model.SortedKeys(m)
		want := slices.Sorted(maps.Keys(m))
		if !slices.Equal(got, want) {
			t.Fatalf("%d keys: %v, want %v", n, got, want)
		}
	}
}

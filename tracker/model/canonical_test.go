package model

import (
	"crypto/sha256"
	"encoding/json"
	"math"
	"slices"
	"testing"
	"time"
)

func TestCanonicalAndContentHash(t *testing.T) {
	r, err := Load("testdata/valid.json")
	if err != nil {
		t.Fatal(err)
	}
	h, err := r.ContentHash()
	if err != nil {
		t.Fatal(err)
	}
	same := *r
	same.Benchmarks = slices.Clone(r.Benchmarks)
	slices.Reverse(same.Benchmarks)
	same.Benchmarks[0].Metrics = map[string]float64{} // empty is absent
	same.Run.StartedAt = r.Run.StartedAt.In(time.FixedZone("CET", 3600))
	if h2, _ := same.ContentHash(); string(h2) != string(h) {
		t.Error("reordered benchmarks, an empty map or another time zone changed the content hash")
	}
	if r.Benchmarks[0].Suite != "elementwise" || r.Run.StartedAt.Location() != time.UTC {
		t.Error("Canonical modified its receiver")
	}
	other := *r
	other.Benchmarks = slices.Clone(r.Benchmarks)
	other.Benchmarks[0].Samples = []float64{1, 2, 3}
	if h3, _ := other.ContentHash(); string(h3) == string(h) {
		t.Error("different samples, same content hash")
	}
}

// TestMedianCV pins values computed with numpy:
// python3 -c "import numpy as n; x=n.array(X); print(n.median(x), x.std(ddof=1)/x.mean())"
func TestMedianCV(t *testing.T) {
	for _, tc := range []struct {
		x      []float64
		median float64
		cv     float64
	}{
		{[]float64{3, 1, 2}, 2, 0.5},
		{[]float64{4, 1, 3, 2}, 2.5, 0.5163977794943222},
		{[]float64{7}, 7, 0},
		{[]float64{-1, 1}, 0, 0}, // zero mean: CV 0
	} {
		m, cv := MedianCV(tc.x)
		if m != tc.median || math.Abs(cv-tc.cv) > 1e-15 {
			t.Errorf("MedianCV(%v) = %v, %v; want %v, %v", tc.x, m, cv, tc.median, tc.cv)
		}
	}
	if m, cv := MedianCV(nil); !math.IsNaN(m) || cv != 0 {
		t.Errorf("MedianCV(nil) = %v, %v; want NaN, 0", m, cv)
	}
}

// TestContentHashIsMarshalHash: the streamed hash is the SHA-256 of
// json.Marshal of the canonical form, byte for byte, as stores recorded it
// before it was streamed (a changed hash would turn re-records into conflicts).
func TestContentHashIsMarshalHash(t *testing.T) {
	r, err := Load("testdata/valid.json")
	if err != nil {
		t.Fatal(err)
	}
	odd := *r
	odd.Benchmarks = slices.Clone(r.Benchmarks)
	odd.Benchmarks[1].Samples = []float64{1e-7, 1e21, 123456789012345678, math.Copysign(0, -1), 5e-324, math.MaxFloat64}
	odd.Benchmarks[1].Name = "<html> & \u2028 \xff"
	odd.Run.Env = map[string]string{"z": "1", "a": "é"}
	for _, tc := range []struct {
		name string
		r    *Results
	}{
		{"fixture", r},
		{"odd floats and strings", &odd},
		{"no benchmarks", &Results{Run: r.Run}},
		{"empty benchmarks", &Results{Run: r.Run, Benchmarks: []Benchmark{}}},
		{"synthetic", mustParse(t, synthetic(50, 30))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := json.Marshal(tc.r.Canonical())
			if err != nil {
				t.Fatal(err)
			}
			want := sha256.Sum256(data)
			got, err := tc.r.ContentHash()
			if err != nil || string(got) != string(want[:]) {
				t.Errorf("ContentHash = %x, %v; want %x", got, err, want)
			}
		})
	}
}

func mustParse(t *testing.T, data []byte) *Results {
	t.Helper()
	r, err := Parse("x.json", data)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestMedianCVBuf checks that MedianCVBuf, its buffer reused from one
// call to the next (longer, then shorter), gives MedianCV's figures bit for
// bit and leaves its input alone.
func TestMedianCVBuf(t *testing.T) {
	var buf []float64
	for _, n := range []int{0, 1, 2, 7, 100, 3, 1300, 4} {
		x := make([]float64, n)
		for i := range x {
			x[i] = float64((i*7919)%97) + 0.1*float64(i%3)
		}
		orig := slices.Clone(x)
		m1, c1 := MedianCV(x)
		var m2, c2 float64
		m2, c2, buf = MedianCVBuf(x, buf)
		if math.Float64bits(m1) != math.Float64bits(m2) || math.Float64bits(c1) != math.Float64bits(c2) || !slices.Equal(x, orig) {
			t.Errorf("n=%d: MedianCVBuf = %v, %v; MedianCV = %v, %v", n, m2, c2, m1, c1)
		}
	}
}

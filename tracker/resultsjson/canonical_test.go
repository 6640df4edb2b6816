package resultsjson

import (
	"crypto/sha256"
	"encoding/json"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/perfgate/perfgate/tracker/model"
)

func TestCanonicalAndContentHash(t *testing.T) {
	r, err := Load("testdata/valid.json")
	if err != nil {
		t.Fatal(err)
	}
	h, err := ContentHash(r)
	if err != nil {
		t.Fatal(err)
	}
	same := *r
	same.Benchmarks = slices.Clone(r.Benchmarks)
	slices.Reverse(same.Benchmarks)
	same.Benchmarks[0].Metrics = map[string]float64{} // empty is absent
	same.Run.StartedAt = r.Run.StartedAt.In(time.FixedZone("CET", 3600))
	if h2, _ := ContentHash(&same); string(h2) != string(h) {
		t.Error("reordered benchmarks, an empty map or another time zone changed the content hash")
	}
	if r.Benchmarks[0].Suite != "elementwise" || r.Run.StartedAt.Location() != time.UTC {
		t.Error("Canonical modified its receiver")
	}
	other := *r
	other.Benchmarks = slices.Clone(r.Benchmarks)
	other.Benchmarks[0].Samples = []float64{1, 2, 3}
	if h3, _ := ContentHash(&other); string(h3) == string(h) {
		t.Error("different samples, same content hash")
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
		r    *model.Results
	}{
		{"fixture", r},
		{"odd floats and strings", &odd},
		{"no benchmarks", &model.Results{Run: r.Run}},
		{"empty benchmarks", &model.Results{Run: r.Run, Benchmarks: []model.Benchmark{}}},
		{"synthetic", mustParse(t, synthetic(50, 30))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := json.Marshal(tc.r.Canonical())
			if err != nil {
				t.Fatal(err)
			}
			want := sha256.Sum256(data)
			got, err := ContentHash(tc.r)
			if err != nil || string(got) != string(want[:]) {
				t.Errorf("ContentHash = %x, %v; want %x", got, err, want)
			}
		})
	}
}

func mustParse(t *testing.T, data []byte) *model.Results {
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
		m1, c1 := model.MedianCV(x)
		var m2, c2 float64
		m2, c2, buf = model.MedianCVBuf(x, buf)
		if math.Float64bits(m1) != math.Float64bits(m2) || math.Float64bits(c1) != math.Float64bits(c2) || !slices.Equal(x, orig) {
			t.Errorf("n=%d: MedianCVBuf = %v, %v; MedianCV = %v, %v", n, m2, c2, m1, c1)
		}
	}
}

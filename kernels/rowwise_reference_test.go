package kernels

import (
	"math"
	"testing"
)

// TestPhilox checks Philox4x32-10 against the known-answer vectors of
// Random123 1.14 (kat_vectors: "philox4x32 10").
func TestPhilox(t *testing.T) {
	tests := []struct {
		ctr  [4]uint32
		key  [2]uint32
		want [4]uint32
	}{
		{[4]uint32{0, 0, 0, 0}, [2]uint32{0, 0}, [4]uint32{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
		{[4]uint32{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, [2]uint32{0xffffffff, 0xffffffff}, [4]uint32{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
		{[4]uint32{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, [2]uint32{0xa4093822, 0x299f31d0}, [4]uint32{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
	}
	for _, tt := range tests {
		if got := philox4x32(tt.ctr, tt.key); got != tt.want {
			t.Errorf("philox4x32(%08x, %08x) = %08x, want %08x", tt.ctr, tt.key, got, tt.want)
		}
	}
}

// TestDropoutRef checks that about keep of the elements survive, scaled by 1/keep.
func TestDropoutRef(t *testing.T) {
	const n = 1 << 16
	kept := 0
	for i := int64(0); i < n; i++ {
		switch y := dropoutRef(1.5, i, dropoutKeep); y {
		case 0:
		case float32(1.5) * float32(1/dropoutKeep):
			kept++
		default:
			t.Fatalf("element %d: %g is neither 0 nor 1.5/keep", i, y)
		}
	}
	// Binomial(65536, 0.9): sd 77; 5 sd either side.
	if frac := float64(kept) / n; math.Abs(frac-dropoutKeep) > 5*77.0/n {
		t.Errorf("kept %.4f of the elements, want %.1f", frac, dropoutKeep)
	}
}

// TestRowRefs checks the float64 references on rows worked by hand.
func TestRowRefs(t *testing.T) {
	x := []float64{1, 2, 3, 4}
	near := func(name string, got, want []float64) {
		t.Helper()
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-12 {
				t.Errorf("%s = %v, want %v", name, got, want)
				return
			}
		}
	}
	// mean 2.5, variance 1.25: (x - 2.5) / sqrt(1.25), then ·2 + 1.
	s := 1 / math.Sqrt(1.25)
	near("layerNormRef", layerNormRef(x, []float64{2, 2, 2, 2}, []float64{1, 1, 1, 1}, 0),
		[]float64{1 - 3*s, 1 - s, 1 + s, 1 + 3*s})
	// mean of squares 7.5.
	r := 1 / math.Sqrt(7.5)
	near("rmsNormRef", rmsNormRef(x, []float64{1, 1, 1, 1}, 0), []float64{r, 2 * r, 3 * r, 4 * r})
	e := []float64{math.Exp(-3), math.Exp(-2), math.Exp(-1), 1}
	sum := e[0] + e[1] + e[2] + e[3]
	near("softmaxRef", softmaxRef(x), []float64{e[0] / sum, e[1] / sum, e[2] / sum, e[3] / sum})
	// logsumexp(x) - x[1] = 4 + log(sum) - 2.
	if got, want := crossEntropyRow(x, 1), 2+math.Log(sum); math.Abs(got-want) > 1e-12 {
		t.Errorf("crossEntropyRow = %v, want %v", got, want)
	}
}

func TestSampleRows(t *testing.T) {
	for _, rows := range []int64{1, 64, 65, 32768} {
		got := sampleRows(rows)
		seen := map[int64]bool{}
		for _, r := range got {
			if r < 0 || r >= rows {
				t.Fatalf("sampleRows(%d) has row %d", rows, r)
			}
			seen[r] = true
		}
		if !seen[0] || !seen[rows-1] {
			t.Errorf("sampleRows(%d) misses the first or last row: %v", rows, got)
		}
		if rows <= 64 && len(seen) != int(rows) {
			t.Errorf("sampleRows(%d) checks %d rows, want all", rows, len(seen))
		}
	}
}

func TestParallelSumIsOrdered(t *testing.T) {
	f := func(i int64) float64 { return 1 / float64(i+1) }
	a, b := parallelSum(100000, f), parallelSum(100000, f)
	if a != b {
		t.Errorf("parallelSum differs between calls: %v vs %v", a, b)
	}
	var want float64
	for i := int64(0); i < 100000; i++ {
		want += f(i)
	}
	if math.Abs(a-want) > 1e-9 {
		t.Errorf("parallelSum = %v, want %v", a, want)
	}
}

func TestDenseFLOPsPerClock(t *testing.T) {
	// H100 SXM: 132 SMs at 1830 MHz make NVIDIA's 989.4 TF (fp16) and 494.7 TF (TF32).
	if got := 132 * 1830e6 * denseFLOPsPerClock("9.0", "bf16", false) / 1e12; math.Abs(got-989.4) > 0.5 {
		t.Errorf("H100 bf16 dense peak %.1f TF, want 989.4", got)
	}
	if got := 132 * 1830e6 * denseFLOPsPerClock("9.0", "fp32", true) / 1e12; math.Abs(got-494.7) > 0.5 {
		t.Errorf("H100 TF32 dense peak %.1f TF, want 494.7", got)
	}
	if denseFLOPsPerClock("7.5", "fp16", false) != 0 {
		t.Error("an unknown architecture must have no peak")
	}
}

// TestRowLayout: a row of dim elements is held in registers, k 16-byte
// vectors a thread, by a power-of-two number of threads; a row that does
// not split into 16-byte vectors, or needs more than a block, is refused.
func TestRowLayout(t *testing.T) {
	for _, tt := range []struct {
		dtype      string
		dim, k     int64
		tpr, block int
		bad        bool
	}{
		{"fp32", 4096, 4, 256, 256, false},    // 1024 vectors, 4 a thread
		{"bf16", 4096, 2, 256, 256, false},    // 512 vectors of 8, 2 a thread
		{"fp16", 12288, 2, 1024, 1024, false}, // 1536 vectors: 768 threads, rounded up to 1024
		{"fp32", 4, 4, 1, 256, false},         // one vector: one thread, a block of 256
		{"fp32", 6, 4, 0, 0, true},            // not a multiple of 4 fp32
		{"fp32", 1 << 20, 4, 0, 0, true},      // 65,536 threads a row
	} {
		tpr, block, err := rowLayout(tt.dtype, tt.dim, tt.k)
		if (err != nil) != tt.bad || tpr != tt.tpr || block != tt.block {
			t.Errorf("rowLayout(%s, %d, %d) = %d, %d, %v; want %d, %d, error %v", tt.dtype, tt.dim, tt.k, tpr, block, err, tt.tpr, tt.block, tt.bad)
		}
	}
}

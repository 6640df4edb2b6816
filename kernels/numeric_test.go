package kernels

import (
	"math"
	"testing"
)

// The expected half and bfloat16 encodings are those of numpy:
//
//	python3 -c "import numpy as np; print(hex(np.float32(X).astype(np.float16).view(np.uint16)))"
//	python3 -c "import torch; print(hex(torch.tensor(X).to(torch.bfloat16).view(torch.int16).item() & 0xffff))"
func TestF32ToF16(t *testing.T) {
	tests := []struct {
		in   float32
		want uint16
	}{
		{1, 0x3c00}, {-2, 0xc000}, {0.1, 0x2e66}, {65504, 0x7bff}, {65520, 0x7c00}, {1e-7, 0x0002},
		{5.960464477539063e-08, 0x0001}, {2.980232238769531e-08, 0x0000}, // half of the smallest subnormal ties to even (0)
		{6.103515625e-05, 0x0400}, {1.0009765625, 0x3c01}, {1.00048828125, 0x3c00}, // a tie rounds to even
		{1.00146484375, 0x3c02}, {float32(math.Inf(1)), 0x7c00}, {float32(math.Inf(-1)), 0xfc00},
	}
	for _, tt := range tests {
		if got := f32ToF16(tt.in); got != tt.want {
			t.Errorf("f32ToF16(%g) = %#04x, want %#04x", tt.in, got, tt.want)
		}
	}
	if h := f32ToF16(float32(math.NaN())); h&0x7c00 != 0x7c00 || h&0x3ff == 0 {
		t.Errorf("NaN encodes as %#04x", h)
	}
}

func TestF16RoundTrip(t *testing.T) {
	for h := uint32(0); h < 0x10000; h++ {
		f := f16ToF32(uint16(h))
		if math.IsNaN(float64(f)) {
			continue
		}
		if back := f32ToF16(f); back != uint16(h) {
			t.Fatalf("half %#04x -> %g -> %#04x", h, f, back)
		}
	}
}

func TestBF16(t *testing.T) {
	tests := []struct {
		in   float32
		want uint16
	}{{1, 0x3f80}, {-2, 0xc000}, {0.1, 0x3dcd}, {1.00390625, 0x3f80}, {1.01171875, 0x3f82}, {3.0e38, 0x7f62}}
	for _, tt := range tests {
		if got := f32ToBF16(tt.in); got != tt.want {
			t.Errorf("f32ToBF16(%g) = %#04x, want %#04x", tt.in, got, tt.want)
		}
		if back := bf16ToF32(f32ToBF16(tt.in)); math.Abs(float64(back-tt.in)) > math.Abs(float64(tt.in))/128 {
			t.Errorf("bf16 round trip of %g gave %g", tt.in, back)
		}
	}
}

func TestRandValue(t *testing.T) {
	seen := map[float32]bool{}
	for i := int64(0); i < 100000; i++ {
		v := randValue(7, i, -2, 2)
		if v < -2 || v >= 2 || v == 0 {
			t.Fatalf("randValue(7, %d) = %g, outside [-2, 2) or zero", i, v)
		}
		seen[v] = true
	}
	if len(seen) < 99000 {
		t.Errorf("only %d distinct values in 100000", len(seen))
	}
	if randValue(7, 1<<40, -2, 2) == randValue(7, 0, -2, 2) {
		t.Error("the high half of the index does not reach the hash")
	}
	if randValue(1, 5, -2, 2) == randValue(2, 5, -2, 2) {
		t.Error("the seed does not change the stream")
	}
}

func TestCheckClose(t *testing.T) {
	tol := toleranceFor("fp32")
	idx := []int64{10, 11, 12}
	if err := checkClose([]float32{1, 2, 3}, []float32{1, 2.00001, 3}, idx, tol); err != nil {
		t.Errorf("within tolerance: %v", err)
	}
	err := checkClose([]float32{1, float32(math.NaN()), 3.1}, []float32{1, 2, 3}, idx, tol)
	me, ok := err.(*mismatchError)
	if !ok || me.Index != 11 || me.Bad != 2 {
		t.Errorf("got %v, want the first bad element 11 and 2 bad", err)
	}
}

func TestToleranceScalesWithDType(t *testing.T) {
	f32, f16, bf := toleranceFor("fp32"), toleranceFor("fp16"), toleranceFor("bf16")
	if !(f32.Rel < f16.Rel && f16.Rel < bf.Rel) {
		t.Errorf("tolerances not ordered by precision: %v %v %v", f32, f16, bf)
	}
	// One ulp of the type at 1.0 must pass; a 5% error (a wrong kernel) must not.
	for _, tt := range []struct {
		dt  string
		ulp float64
	}{{"fp32", 1.0 / (1 << 23)}, {"fp16", 1.0 / (1 << 10)}, {"bf16", 1.0 / (1 << 7)}} {
		tol := toleranceFor(tt.dt)
		if tt.ulp > tol.Abs+tol.Rel || 0.05 <= tol.Abs+tol.Rel {
			t.Errorf("%s: tolerance %v vs ulp %g", tt.dt, tol, tt.ulp)
		}
	}
}

func TestCheckIndices(t *testing.T) {
	if got := checkIndices(1000); len(got) != 1000 || got[999] != 999 {
		t.Errorf("small outputs are checked whole: %d indices", len(got))
	}
	n := int64(256 << 20)
	idx := checkIndices(n)
	if idx[0] != 0 || idx[len(idx)-1] != n-1 || len(idx) != 3<<16 {
		t.Errorf("large output: %d indices from %d to %d", len(idx), idx[0], idx[len(idx)-1])
	}
	for i := 1; i < len(idx); i++ {
		if idx[i] <= idx[i-1] || idx[i] >= n {
			t.Fatalf("indices not increasing within range at %d: %d, %d", i, idx[i-1], idx[i])
		}
	}
}

func TestEncodeDecodeElem(t *testing.T) {
	for _, dt := range []string{"fp32", "fp16", "bf16", "fp64", "i32", "u32", "i8", "u8", "i64", "u64"} {
		raw := make([]byte, 4*elemSize(dt))
		encodeElem(dt, raw, 2, 3)
		if got := decodeElem(dt, raw, 2); got != 3 {
			t.Errorf("%s: decoded %g, want 3", dt, got)
		}
		if got := decodeElem(dt, raw, 1); got != 0 {
			t.Errorf("%s: neighbour element is %g", dt, got)
		}
	}
}

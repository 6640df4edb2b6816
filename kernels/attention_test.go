package kernels

import (
	"errors"
	"math"
	"testing"

	"github.com/perfgate/perfgate/kernels/suite"
)

func TestAttnFLOPs(t *testing.T) {
	sh := mha(8, 16, 2048, 128)
	tests := []struct {
		causal bool
		want   float64
	}{
		{false, 4 * 8 * 16 * 2048 * 2048 * 128},      // 4·B·H·S²·d
		{true, 4 * 8 * 16 * 128 * (2048 * 2049 / 2)}, // S(S+1)/2 pairs kept
	}
	for _, tt := range tests {
		if got := sh.flops(tt.causal); got != tt.want {
			t.Errorf("flops(causal=%v) = %g, want %g", tt.causal, got, tt.want)
		}
	}
	if got, want := sh.bytes("bf16"), 4.0*8*16*2048*128*2; got != want {
		t.Errorf("bytes = %g, want %g", got, want)
	}
	// Grouped-query: the FLOPs of the query heads, K and V at 8 of 32 heads.
	if got, want := gqaPrefill.flops(false), 4.0*4*32*2048*2048*128; got != want {
		t.Errorf("gqa flops = %g, want %g", got, want)
	}
	if got, want := gqaPrefill.bytes("bf16"), (2*4*32+2*4*8)*2048*128*2.0; got != want {
		t.Errorf("gqa bytes = %g, want %g", got, want)
	}
}

func TestAttnShapeParams(t *testing.T) {
	for _, sh := range []attnShape{mha(8, 16, 2048, 128), gqaPrefill, {B: 2, H: 4, S: 128, D: 64, KVH: 4}} {
		c := suite.Case{Params: shapeParams(sh, true)}
		got, causal := attnCase(c)
		if got.kvHeads() != sh.kvHeads() || got.group() != sh.group() || got.elems() != sh.elems() || !causal {
			t.Errorf("%+v: read back as %+v", sh, got)
		}
		if named, gqa := c.Param("hkv") != "", sh.kvHeads() != sh.H; named != gqa {
			t.Errorf("%+v: params %v (hkv only for grouped-query shapes)", sh, c.Params)
		}
	}
}

func TestAttendRow(t *testing.T) {
	// q = (1, 0), K = I, V = ((1, 2), (3, 4)), scale 1: p = (e, 1)/(e+1).
	out := make([]float64, 2)
	attendRow([]float64{1, 0}, []float64{1, 0, 0, 1}, []float64{1, 2, 3, 4}, 2, 2, 1, out)
	p0 := math.E / (math.E + 1)
	want := []float64{p0 + 3*(1-p0), 2*p0 + 4*(1-p0)}
	for i := range out {
		if math.Abs(out[i]-want[i]) > 1e-15 {
			t.Errorf("out[%d] = %v, want %v", i, out[i], want[i])
		}
	}
	// Only the first key (a causal row 0): the output is V's first row.
	attendRow([]float64{1, 0}, []float64{1, 0, 0, 1}, []float64{1, 2, 3, 4}, 1, 2, 1, out)
	if out[0] != 1 || out[1] != 2 {
		t.Errorf("one key: out = %v, want [1 2]", out)
	}
}

// referenceOutput computes every row of sh on the CPU, rounded to dtype.
func referenceOutput(dtype string, sh attnShape, causal bool) []byte {
	raw := make([]byte, sh.elems()*elemSize(dtype))
	out := make([]float64, sh.D)
	for h := range sh.heads() {
		q := headValues(dtype, seedQ, h, sh.S, sh.D)
		k := headValues(dtype, seedK, h/int64(sh.group()), sh.S, sh.D)
		v := headValues(dtype, seedV, h/int64(sh.group()), sh.S, sh.D)
		for i := range sh.S {
			n := sh.S
			if causal {
				n = i + 1
			}
			attendRow(q[i*sh.D:(i+1)*sh.D], k, v, n, sh.D, 1/math.Sqrt(float64(sh.D)), out)
			for c := range sh.D {
				encodeElem(dtype, raw, (h*int64(sh.S)+int64(i))*int64(sh.D)+int64(c), out[c])
			}
		}
	}
	return raw
}

func TestCheckAttention(t *testing.T) {
	for _, sh := range []attnShape{mha(1, 2, 128, 64), {B: 2, H: 4, S: 128, D: 64, KVH: 2}} {
		testCheckAttention(t, sh)
	}
	// A grouped-query output computed as if every query head had its own
	// K/V head (the heads a kernel that ignores the group would read) fails.
	gqa := attnShape{B: 2, H: 4, S: 128, D: 64, KVH: 2}
	wrong := referenceOutput("fp16", mha(2, 4, 128, 64), false)
	var mm *mismatchError
	if err := checkAttention(wrong, "fp16", gqa, false, attnTolerance("naive", "fp16")).err(); !errors.As(err, &mm) || mm.Bad == 0 {
		t.Errorf("a grouped-query output with a K/V head per query head passed: %v", err)
	}
}

func testCheckAttention(t *testing.T, sh attnShape) {
	for _, dt := range attnDTypes {
		for _, causal := range []bool{false, true} {
			raw := referenceOutput(dt, sh, causal)
			e := checkAttention(raw, dt, sh, causal, attnTolerance("tiled", dt))
			if err := e.err(); err != nil || e.Checked != sh.elems() {
				t.Fatalf("%s causal=%v: the rounded reference fails: %v (checked %d)", dt, causal, err, e.Checked)
			}
			// Rounding to dtype is all that separates the two: at most half an ulp of |O| ≤ 2.
			if e.MaxAbs > 4e-3 || e.MaxAbs == 0 {
				t.Errorf("%s: max abs error %g of a rounded reference", dt, e.MaxAbs)
			}
			// The non-causal answer is wrong for the causal mask and vice versa.
			other := referenceOutput(dt, sh, !causal)
			var mm *mismatchError
			if err := checkAttention(other, dt, sh, causal, attnTolerance("naive", dt)).err(); !errors.As(err, &mm) || mm.Bad == 0 {
				t.Errorf("%s causal=%v: the other mask's output passed: %v", dt, causal, err)
			}
			encodeElem(dt, raw, 777, math.NaN())
			if err := checkAttention(raw, dt, sh, causal, attnTolerance("naive", dt)).err(); !errors.As(err, &mm) || mm.Index != 777 || mm.Bad != 1 {
				t.Errorf("%s: a NaN at 777: %v", dt, err)
			}
		}
	}
}

func TestCompareOutputs(t *testing.T) {
	a := make([]byte, 8)
	b := make([]byte, 8)
	for i, v := range []float64{1, -0.5, 0.25, 2} {
		encodeElem("fp16", a, int64(i), v)
		encodeElem("fp16", b, int64(i), v)
	}
	encodeElem("fp16", b, 3, 2.5)
	e := compareOutputs(a, b, "fp16", 4, tolerance{Abs: 0.1})
	if e.MaxAbs != 0.5 || e.MaxRef != 2.5 || e.rel() != 0.2 || e.err() == nil {
		t.Errorf("got max abs %g, max ref %g, rel %g, err %v", e.MaxAbs, e.MaxRef, e.rel(), e.err())
	}
	m := map[string]float64{}
	e.metrics(m, "naive")
	if m["max_abs_err_vs_naive"] != 0.5 || m["max_rel_err_vs_naive"] != 0.2 {
		t.Errorf("metrics %v", m)
	}
}

func TestSpread(t *testing.T) {
	if got := spread(5, 8); len(got) != 5 || got[4] != 4 {
		t.Errorf("spread(5, 8) = %v", got)
	}
	got := spread(4096, 256)
	if len(got) != 64 || got[0] != 0 || got[63] != 4095 {
		t.Errorf("spread(4096, 256) = %v", got)
	}
	if h := checkHeads(256); len(h) != 8 || h[0] != 0 || h[7] != 255 {
		t.Errorf("checkHeads(256) = %v", h)
	}
	if h := checkHeads(1); len(h) != 1 || h[0] != 0 {
		t.Errorf("checkHeads(1) = %v", h)
	}
}

// TestFlash2 pins which shapes the fused path runs as flash2: every
// prefill shape of the catalogue, none of the launch-bound ones.
func TestFlash2(t *testing.T) {
	for _, s := range attnShapes[SizeLarge] {
		if got, want := flash2(s), s.S >= 1024; got != want {
			t.Errorf("flash2(%+v) = %v, want %v", s, got, want)
		}
	}
	for _, s := range []attnShape{mha(1, 1, 1024, 64), mha(1, 1, 1088, 128), mha(2, 2, 4096, 128)} {
		if got, want := flash2(s), s.D == 128 && s.S%128 == 0; got != want {
			t.Errorf("flash2(%+v) = %v, want %v", s, got, want)
		}
	}
}

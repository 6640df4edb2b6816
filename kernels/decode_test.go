package kernels

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/perfgate/perfgate/kernels/measure"
)

// decodeReference runs the whole decode chain on the CPU, rounding each
// output to dtype as the GPU stores it.
func decodeReference(dtype string, sh decodeShape) []byte {
	raw := make([]byte, sh.elems()*elemSize(dtype))
	out := make([]float64, sh.D)
	q := make([]float64, sh.D)
	for h := range sh.seqs() {
		qs := headValues(dtype, seedQ, h, sh.L, sh.D)
		k := headValues(dtype, seedK, h, sh.L, sh.D)
		v := headValues(dtype, seedV, h, sh.L, sh.D)
		base := h * int64(sh.L) * int64(sh.D)
		for t := range sh.L {
			for c := range sh.D {
				x := float32(qs[t*sh.D+c])
				if t > 0 {
					x += decodeElem(dtype, raw, base+int64((t-1)*sh.D+c))
				}
				q[c] = float64(roundTo(dtype, x))
			}
			attendRow(q, k, v, t+1, sh.D, 1/math.Sqrt(float64(sh.D)), out)
			for c := range sh.D {
				encodeElem(dtype, raw, base+int64(t*sh.D+c), out[c])
			}
		}
	}
	return raw
}

func TestCheckDecode(t *testing.T) {
	sh := decodeShape{1, 2, 128, 40}
	for _, dt := range attnDTypes {
		raw := decodeReference(dt, sh)
		e := checkDecode(raw, dt, sh, decodeTolerance(dt))
		if err := e.err(); err != nil || e.Checked != sh.elems() {
			t.Fatalf("%s: the rounded reference fails: %v (checked %d)", dt, err, e.Checked)
		}
		// Step 0 attends to key 0 alone: its output is V's first row.
		if got, want := decodeElem(dt, raw, 5), roundTo(dt, randValue(seedV, 5, attnLo, attnHi)); got != want {
			t.Errorf("%s: step 0 output %g, want V[0][5] = %g", dt, got, want)
		}
		// Steps that ignore the previous output (q = Q[t] alone) are caught.
		stale := referenceOutput(dt, mha(1, 2, sh.L, sh.D), true)
		var mm *mismatchError
		if err := checkDecode(stale, dt, sh, decodeTolerance(dt)).err(); !errors.As(err, &mm) {
			t.Errorf("%s: outputs without the chained query passed", dt)
		}
	}
}

func TestPlanDecode(t *testing.T) {
	const h100 = 232448 - 1024 // the H100's opt-in shared memory per block, less a static kilobyte
	tests := []struct {
		op    string
		l     int
		avail int
		want  decodePlan
	}{
		{"per_launch", 128, h100, decodePlan{Kind: "step", Warps: 4, Shared: 38976}},
		{"cuda_graph", 4096, h100, decodePlan{Kind: "step", Warps: 8, Shared: 77952}},
		{"persistent", 128, h100, decodePlan{Kind: "chip", Warps: 4, Shared: 4160 + 128*544, Staged: 128}},
		{"persistent", 256, h100, decodePlan{Kind: "chip", Warps: 4, Shared: 4160 + 256*544, Staged: 256}},
		// 400 of 512 positions fit in shared memory; the other 7 tiles go to 7 of the 8 warps' registers.
		{"persistent", 512, h100, decodePlan{Kind: "chip", Warps: 8, Shared: 8320 + 400*544, Staged: 400, InReg: 112}},
		{"persistent", 4096, h100, decodePlan{Kind: "loop", Warps: 8, Shared: 77952 + 272*544, Staged: 272}},
		// An A100's 163 KiB: 288 positions in shared memory leave 14 tiles, more than 8 warps hold.
		{"persistent", 512, 166912 - 1024, decodePlan{Kind: "loop", Warps: 8, Shared: 77952 + 160*544, Staged: 160}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/l=%d/avail=%d", tt.op, tt.l, tt.avail), func(t *testing.T) {
			if got := planDecode(tt.op, tt.l, tt.avail); got != tt.want {
				t.Errorf("planDecode = %+v, want %+v", got, tt.want)
			}
			if got := planDecode(tt.op, tt.l, tt.avail); got.Shared > tt.avail {
				t.Errorf("%d bytes of shared memory, %d available", got.Shared, tt.avail)
			}
		})
	}
}

func TestDecodeCases(t *testing.T) {
	cs := decodeCases(SizeMedium, DTypes)
	if len(cs) != 4*2*3 {
		t.Fatalf("%d decode cases at medium, want 4 lengths × 2 dtypes × 3 strategies", len(cs))
	}
	if got := cs[len(cs)-1].Name(measure.Batch); got != "persistent/dtype=bf16/b=8/h=8/d=128/l=4096/mode=batch" {
		t.Errorf("last case %s", got)
	}
	if sh := decodeCase(cs[0]); sh != (decodeShape{8, 8, 128, 128}) {
		t.Errorf("decodeCase = %+v", sh)
	}
	if cs := decodeCases(SizeMedium, []string{"fp32"}); len(cs) != 0 {
		t.Errorf("decode has no fp32 cases, got %d", len(cs))
	}
}

func TestAttentionCases(t *testing.T) {
	cs := attentionCases(SizeMedium, DTypes)
	if len(cs) != 7*2*2*2 {
		t.Fatalf("%d attention cases at medium, want 7 shapes × 2 dtypes × 2 masks × 2 implementations", len(cs))
	}
	want := map[string]attnShape{
		"tiled/dtype=fp16/b=8/h=16/s=2048/d=128/causal=true/mode=cold":       mha(8, 16, 2048, 128),
		"naive/dtype=bf16/b=4/h=32/hkv=8/s=2048/d=128/causal=true/mode=cold": gqaPrefill,
	}
	for _, c := range cs {
		if sh, ok := want[c.Name(measure.Cold)]; ok {
			delete(want, c.Name(measure.Cold))
			if got, causal := attnCase(c); got != sh || !causal {
				t.Errorf("attnCase = %+v, %v", got, causal)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("no cases %v", want)
	}
}

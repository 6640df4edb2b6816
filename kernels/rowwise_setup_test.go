package kernels

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/perfgate/perfgate/kernels/device"
	"github.com/perfgate/perfgate/kernels/device/devicetest"
	"github.com/perfgate/perfgate/kernels/suite"
)

// fakeLayerNorm is layernorm_<dtype>(x, gamma, beta, y, rows, dim, tpr,
// eps) (rowwise.cu), every row whatever the grid.
func fakeLayerNorm(dtype string) func(*devicetest.GPU, device.Launch) {
	return func(g *devicetest.GPU, l device.Launch) {
		rows, dim, es := int64(l.Args[4]), int64(l.Args[5]), elemSize(dtype)
		read := func(p uint64, n int64) []float64 {
			raw := g.Mem(device.Ptr(p), n*es)
			out := make([]float64, n)
			for i := range out {
				out[i] = float64(decodeElem(dtype, raw, int64(i)))
			}
			return out
		}
		gamma, beta := read(l.Args[1], dim), read(l.Args[2], dim)
		for r := range rows {
			y := layerNormRef(read(l.Args[0]+uint64(r*dim*es), dim), gamma, beta, float64(f32arg(l.Args[7])))
			out := g.Mem(device.Ptr(l.Args[3]+uint64(r*dim*es)), dim*es)
			for j, v := range y {
				encodeElem(dtype, out, int64(j), v)
			}
		}
	}
}

// fakeMSE is mse_<dtype>(x, y, out, partials, counter, n) (rowwise.cu): the
// last block's reduction reads a counter the setup zeroed; not zeroed, it
// writes NaN.
func fakeMSE(dtype string) func(*devicetest.GPU, device.Launch) {
	return func(g *devicetest.GPU, l device.Launch) {
		n, es := int64(l.Args[5]), elemSize(dtype)
		x, y := g.Mem(device.Ptr(l.Args[0]), n*es), g.Mem(device.Ptr(l.Args[1]), n*es)
		var sum float64
		for i := range n {
			d := float64(decodeElem(dtype, x, i)) - float64(decodeElem(dtype, y, i))
			sum += d * d
		}
		if slices.ContainsFunc(g.Mem(device.Ptr(l.Args[4]), 4), func(b byte) bool { return b != 0 }) {
			sum = math.NaN()
		}
		encodeElem("fp32", g.Mem(device.Ptr(l.Args[2]), 4), 0, sum/float64(n))
	}
}

func TestRowwiseSetupOnTheFake(t *testing.T) {
	for _, dt := range DTypes {
		t.Run("layernorm/"+dt, func(t *testing.T) {
			g := newFake()
			g.Kernels["layernorm_"+dt] = fakeLayerNorm(dt)
			const rows, dim = 37, 768
			es := elemSize(dt)
			p, err := prepareRowwise(g, suite.Case{Suite: "rowwise", Op: "layernorm", DType: dt, N: rows * dim, Rows: rows, Dim: dim})
			if err != nil {
				t.Fatal(err)
			}
			defer done(t, g, p)
			tpr, block, err := rowLayout(dt, dim, rowVectors("layernorm", dt))
			if err != nil {
				t.Fatal(err)
			}
			// 4 SMs of 1 resident block: the grid-stride kernel gets 4 blocks.
			want := fmt.Sprintf("launch layernorm_%s grid [4 1 1] block [%d 1 1] shared 0 args [buf0 buf2 buf3 buf1 %d %d %d %d] ×1", dt, block, rows, dim, tpr, f32bits(normEps))
			got := calls(g, "launch", "memset8")
			if len(got) != 5 || got[3] != fmt.Sprintf("memset8 buf1 0xff %d", rows*dim*es) || got[4] != want {
				t.Errorf("calls %q: want the three fills, the output poisoned, then %q", got, want)
			}
			if p.meta.Info["launch"] != fmt.Sprintf("grid 4 × block %d", block) || p.meta.PTXHash != "rowwise:layernorm_"+dt {
				t.Errorf("meta %+v", p.meta)
			}
		})
		t.Run("mse/"+dt, func(t *testing.T) {
			g := newFake()
			g.Kernels["mse_"+dt] = fakeMSE(dt)
			const n = 64 * 1024
			p, err := prepareRowwise(g, suite.Case{Suite: "rowwise", Op: "mse", DType: dt, N: n, Rows: 64, Dim: 1024})
			if err != nil {
				t.Fatal(err)
			}
			defer done(t, g, p)
			// x, out, y, then the 4 partials and the counter, zeroed.
			got := calls(g, "alloc", "memset8", "launch")
			want := []string{"memset8 buf3 0x0 20", "memset8 buf1 0xff 4",
				fmt.Sprintf("launch mse_%s grid [4 1 1] block [256 1 1] shared 0 args [buf0 buf2 buf1 buf3 buf3+16 %d] ×1", dt, n)}
			if len(got) < 3 || !slices.Equal(got[len(got)-3:], want) {
				t.Errorf("calls %q: want them to end with %q", got, want)
			}
		})
	}
}

// TestRowwiseSetupChecksRows: a LayerNorm that writes its input's rows
// fails the row check on every sampled row.
func TestRowwiseSetupChecksRows(t *testing.T) {
	g := newFake()
	g.Kernels["layernorm_fp32"] = func(g *devicetest.GPU, l device.Launch) {
		n := int64(l.Args[4] * l.Args[5] * 4)
		copy(g.Mem(device.Ptr(l.Args[3]), n), g.Mem(device.Ptr(l.Args[0]), n))
	}
	_, err := prepareRowwise(g, suite.Case{Suite: "rowwise", Op: "layernorm", DType: "fp32", N: 8 * 256, Rows: 8, Dim: 256})
	var me *mismatchError
	if !errors.As(err, &me) || me.Bad < 8 {
		t.Errorf("err %v, want a mismatch on every row", err)
	}
	done(t, g, nil)
}

//go:build cuda

package kernels

import (
	"errors"
	"fmt"
	"testing"

	"github.com/perfgate/perfgate/kernels/measure"
	"github.com/perfgate/perfgate/kernels/suite"
)

// TestRowwiseMatchesCPU checks every rowwise kernel and dtype against the
// CPU reference at shapes the presets do not reach: rows that do not fill
// a block, one thread per row (dim 8), 8192-wide rows, a 32000-class
// cross-entropy.
func TestRowwiseMatchesCPU(t *testing.T) {
	s := openSession(t)
	shapes := []rowShape{bsd(2, 3, 8), rd(37, 768), rd(5, 8192), rd(300, 4096), bsd(3, 50, 64)}
	for _, op := range rowwiseOps {
		for _, dt := range DTypes {
			for _, sh := range append(shapes, rd(7, 32000)) {
				if sh.dim == 32000 && op != "cross_entropy" {
					continue
				}
				c := suite.Case{Suite: "rowwise", Op: op, DType: dt, N: sh.rows * sh.dim, Rows: sh.rows, Dim: sh.dim}
				t.Run(fmt.Sprintf("%s/%s/%s", op, dt, sh.label()), func(t *testing.T) {
					err := s.do(func(g *gpu) error {
						p, err := prepareRowwise(g, c)
						if err == nil {
							p.cleanup()
						}
						return err
					})
					if err != nil {
						t.Fatal(err)
					}
				})
			}
		}
	}
}

// TestRowwiseCheckCatchesWrongRows feeds the row checker an output that is
// not the softmax of its input (the input itself): it must report it.
func TestRowwiseCheckCatchesWrongRows(t *testing.T) {
	s := openSession(t)
	c := suite.Case{Suite: "rowwise", Op: "softmax", DType: "fp32", N: 64 * 256, Rows: 64, Dim: 256}
	err := s.do(func(g *gpu) error {
		m, err := g.Module("rowwise")
		if err != nil {
			return err
		}
		st := &setup{gpu: g}
		defer st.free()
		x, err := st.alloc(c.N * 4)
		if err != nil {
			return err
		}
		if err := st.fill(m, x, "fp32", c.N, seedRowX, xLo, xHi); err != nil {
			return err
		}
		return st.verifyRows(x, c, func(r int64) []float64 { return softmaxRef(inputRow(seedRowX, "fp32", r, c.Dim, xLo, xHi)) })
	})
	var me *mismatchError
	if !errors.As(err, &me) || me.Bad != 64*256 {
		t.Fatalf("got %v, want a mismatch on all %d elements", err, 64*256)
	}
}

// TestGemmMatchesCPU checks cuBLAS and the tiled kernels in every dtype
// against fp64 dot products at shapes that are not square, one for each
// tile of the tensor-core kernel (gemmTile): 256×384×96 the 128×128×32 tile,
// 1152×2048×96 the 128×256×32 one, 1152×2048×128 the 128×256×64 one.
func TestGemmMatchesCPU(t *testing.T) {
	s := openSession(t)
	for _, c := range gemmCases(SizeSmall, DTypes) {
		if c.Rows != 1024 {
			continue
		}
		for _, sh := range []gemmShape{{256, 384, 96}, {1152, 2048, 96}, {1152, 2048, 128}} {
			c := c
			c.Rows, c.Dim, c.K, c.N = sh.m, sh.n, sh.k, sh.m*sh.n
			c.Params = append([]suite.Param(nil), c.Params...)
			c.Params[len(c.Params)-1].V = gemmShape{c.Rows, c.Dim, c.K}.label()
			t.Run(c.Name(measure.Cold), func(t *testing.T) {
				err := s.do(func(g *gpu) error {
					p, err := prepareGemm(g, c)
					if err == nil {
						p.cleanup()
					}
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

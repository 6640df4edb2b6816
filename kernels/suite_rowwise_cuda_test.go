//go:build cuda

package kernels

import (
	"errors"
	"fmt"
	"testing"
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
				c := benchCase{Suite: "rowwise", Op: op, DType: dt, N: sh.rows * sh.dim, Rows: sh.rows, Dim: sh.dim}
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
	c := benchCase{Suite: "rowwise", Op: "softmax", DType: "fp32", N: 64 * 256, Rows: 64, Dim: 256}
	err := s.do(func(g *gpu) error {
		m, err := g.loadBuiltin("rowwise")
		if err != nil {
			return err
		}
		var bufs buffers
		defer bufs.free()
		x, err := bufs.alloc(c.N * 4)
		if err != nil {
			return err
		}
		if err := g.fill(m, x, "fp32", c.N, seedRowX, xLo, xHi); err != nil {
			return err
		}
		return g.verifyRows(x, c, func(r int64) []float64 { return softmaxRef(inputRow(seedRowX, "fp32", r, c.Dim, xLo, xHi)) })
	})
	var me *mismatchError
	if !errors.As(err, &me) || me.Bad != 64*256 {
		t.Fatalf("got %v, want a mismatch on all %d elements", err, 64*256)
	}
}

// TestGemmMatchesCPU checks cuBLAS and the tiled kernels in every dtype
// against fp64 dot products at a shape that is not square.
func TestGemmMatchesCPU(t *testing.T) {
	s := openSession(t)
	for _, c := range gemmCases(SizeSmall, DTypes) {
		if c.Rows != 1024 {
			continue
		}
		c.Rows, c.Dim, c.K, c.N = 256, 384, 96, 256*384
		c.Params[len(c.Params)-1].V = gemmShape{c.Rows, c.Dim, c.K}.label()
		t.Run(c.name(ModeCold), func(t *testing.T) {
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

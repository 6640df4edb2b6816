package kernels

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"

	"github.com/perfgate/perfgate/kernels/suite"
)

// rowwiseOps are the operations of the rowwise suite.
var rowwiseOps = []string{"layernorm", "rmsnorm", "softmax", "dropout", "mse", "cross_entropy"}

// dropoutKeep is the keep probability of the rowwise dropout (PyTorch's p = 0.1).
const dropoutKeep = 0.9

// A rowShape is a tensor viewed as rows × dim: batch × seq × dim, or rows × dim when batch is 0.
type rowShape struct{ batch, seq, rows, dim int64 }

func bsd(b, s, d int64) rowShape { return rowShape{batch: b, seq: s, rows: b * s, dim: d} }
func rd(r, d int64) rowShape     { return rowShape{rows: r, dim: d} }

// label writes the shape as the benchmark names it: 16x2048x4096 or 8192x32000.
func (s rowShape) label() string {
	if s.batch > 0 {
		return fmt.Sprintf("%dx%dx%d", s.batch, s.seq, s.dim)
	}
	return fmt.Sprintf("%dx%d", s.rows, s.dim)
}

// rowwiseShapes returns the shapes of a size preset. medium (the default)
// keeps the run to a few minutes and always holds 16×2048×4096; large is the
// whole batch {16,32,64,128} × seq {256,512,1024,2048} × dim {8…512, 768,
// 1024, 4096} grid plus rows × 4096/8192.
func rowwiseShapes(size string) []rowShape {
	switch size {
	case SizeSmall:
		return []rowShape{bsd(16, 256, 768), bsd(16, 2048, 4096)}
	case SizeLarge:
		var out []rowShape
		for _, b := range []int64{16, 32, 64, 128} {
			for _, s := range []int64{256, 512, 1024, 2048} {
				for _, d := range []int64{8, 16, 32, 64, 128, 256, 512, 768, 1024, 4096} {
					out = append(out, bsd(b, s, d))
				}
			}
		}
		for _, r := range []int64{4096, 16384, 65536} {
			out = append(out, rd(r, 4096), rd(r, 8192))
		}
		return out
	}
	return []rowShape{bsd(16, 256, 64), bsd(16, 512, 768), bsd(32, 1024, 1024), bsd(16, 2048, 4096), rd(4096, 8192)}
}

// crossEntropyShapes adds a language-model vocabulary to the cross-entropy cases.
var crossEntropyShapes = map[string][]rowShape{
	SizeMedium: {rd(8192, 32000)},
	SizeLarge:  {rd(8192, 32000), rd(8192, 128256)},
}

func rowwiseCases(size string, dtypes []string) []suite.Case {
	var cs []suite.Case
	for _, op := range rowwiseOps {
		shapes := rowwiseShapes(size)
		if op == "cross_entropy" {
			shapes = append(shapes, crossEntropyShapes[size]...)
		}
		for _, dt := range DTypes {
			if !slices.Contains(dtypes, dt) {
				continue
			}
			for _, s := range shapes {
				ps := []suite.Param{{K: "dtype", V: dt}, {K: "shape", V: s.label()}}
				if op == "dropout" {
					ps = append(ps, suite.Param{K: "keep", V: strconv.FormatFloat(dropoutKeep, 'g', -1, 64)})
				}
				cs = append(cs, suite.Case{Suite: "rowwise", Op: op, DType: dt, N: s.rows * s.dim, Rows: s.rows, Dim: s.dim, Params: ps})
			}
		}
	}
	return cs
}

// rowwiseBytes is the memory traffic of one launch: what must be read and
// written at least once, for GB/s and % of the copy ceiling.
func rowwiseBytes(c suite.Case) float64 {
	es := float64(elemSize(c.DType))
	n, d := float64(c.N), float64(c.Dim)
	switch c.Op {
	case "layernorm":
		return 2*n*es + 2*d*es
	case "rmsnorm":
		return 2*n*es + d*es
	case "mse":
		return 2*n*es + 4
	case "cross_entropy":
		return n*es + 8*float64(c.Rows) + 4
	}
	return 2 * n * es // softmax, dropout
}

// rowVectors is how many 16-byte vectors of a row one thread of op holds in
// registers (RW_K in rowwise.cu): 4 for fp32 and softmax, 2 for LayerNorm
// and RMSNorm of the 2-byte types, whichever ran faster on the H100 (four
// vectors of bf16 took 127 registers a thread and ran LayerNorm at 79.7% of
// the copy ceiling, two at 87.0%; softmax fp16 ran at 91.5% with four, 79.7%
// with two).
func rowVectors(op, dtype string) int64 {
	if elemSize(dtype) == 4 || op == "softmax" {
		return 4
	}
	return 2
}

// rowLayout picks threads per row (a power of two) and the block size for a
// row of dim elements of dtype held in registers, k vectors per thread.
func rowLayout(dtype string, dim, k int64) (tpr, block int, err error) {
	v := 16 / elemSize(dtype)
	if dim%v != 0 {
		return 0, 0, fmt.Errorf("dim %d is not a multiple of %d (16-byte rows)", dim, v)
	}
	need := (dim/v + k - 1) / k
	tpr = 1 << bits.Len64(uint64(need-1))
	if need <= 1 {
		tpr = 1
	}
	if tpr > 1024 {
		return 0, 0, fmt.Errorf("dim %d of %s does not fit in a block's registers (at most %d)", dim, dtype, 1024*k*v)
	}
	return tpr, max(tpr, 256), nil
}

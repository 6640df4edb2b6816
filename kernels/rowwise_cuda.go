//go:build cuda

package kernels

import (
	"errors"
	"fmt"

	"gorgonia.org/cu"

	"github.com/perfgate/perfgate/kernels/suite"
)

// residentGrid is how many blocks of fn at block threads fit on the GPU at
// once (a grid-stride kernel launches no more), capped at want.
func (g *gpu) residentGrid(fn cu.Function, block int, want int64) (uint32, error) {
	per, err := fn.MaxActiveBlocksPerMultiProcessor(block, 0)
	if err != nil {
		return 0, wrap("cuOccupancyMaxActiveBlocksPerMultiprocessor", err)
	}
	if per < 1 {
		return 0, fmt.Errorf("a block of %d threads does not fit on an SM (registers)", block)
	}
	return uint32(min(want, int64(per*g.smCount))), nil
}

// prepareRowwise sets up one rowwise case, and checks its output against
// the CPU reference on sampled rows (losses: the whole mean).
func prepareRowwise(g *gpu, c suite.Case) (*prepared, error) {
	m, err := g.loadBuiltin("rowwise")
	if err != nil {
		return nil, err
	}
	entry := c.Op + "_" + c.DType
	fn, err := m.fn(entry)
	if err != nil {
		return nil, err
	}
	es := elemSize(c.DType)
	var bufs buffers
	fail := func(err error) (*prepared, error) { bufs.free(); return nil, err }
	x, err := bufs.alloc(c.N * es)
	if err != nil {
		return fail(err)
	}
	if err := g.fill(m, x, c.DType, c.N, seedRowX, xLo, xHi); err != nil {
		return fail(err)
	}
	var (
		l     *launch
		out   cu.DevicePtr
		check func() error
	)
	switch c.Op {
	case "layernorm", "rmsnorm", "softmax":
		l, out, check, err = g.rowNormSetup(m, fn, c, &bufs, x)
	case "dropout":
		l, out, check, err = g.dropoutSetup(fn, c, &bufs, x)
	case "mse", "cross_entropy":
		l, out, check, err = g.lossSetup(m, fn, c, &bufs, x)
	default:
		err = fmt.Errorf("rowwise suite has no benchmark %q", c.Op)
	}
	if err != nil {
		if l != nil {
			l.params.free()
		}
		return fail(err)
	}
	p := &prepared{work: l.enqueue, ops: 1, cleanup: func() { l.params.free(); bufs.free() },
		meta: suite.WorkMeta{Bytes: rowwiseBytes(c), PTXHash: m.hash(entry),
			Info: map[string]string{"launch": fmt.Sprintf("grid %d × block %d", l.grid[0], l.block[0])}}}
	outBytes := c.N * es
	if c.Op == "mse" || c.Op == "cross_entropy" {
		outBytes = 4
	}
	if err := g.checkOnce(p, out, outBytes, check); err != nil {
		p.cleanup()
		return nil, err
	}
	return p, nil
}

// rowNormSetup: LayerNorm, RMSNorm or softmax over rows of dim, rows held in registers.
func (g *gpu) rowNormSetup(m *module, fn cu.Function, c suite.Case, bufs *buffers, x cu.DevicePtr) (*launch, cu.DevicePtr, func() error, error) {
	es := elemSize(c.DType)
	tpr, block, err := rowLayout(c.DType, c.Dim, rowVectors(c.Op, c.DType))
	if err != nil {
		return nil, 0, nil, err
	}
	y, err := bufs.alloc(c.N * es)
	if err != nil {
		return nil, 0, nil, err
	}
	gamma, err := bufs.alloc(c.Dim * es)
	if err != nil {
		return nil, 0, nil, err
	}
	beta, err := bufs.alloc(c.Dim * es)
	if err != nil {
		return nil, 0, nil, err
	}
	if err := g.fill(m, gamma, c.DType, c.Dim, seedGamma, gammaLo, gammaHi); err != nil {
		return nil, 0, nil, err
	}
	if err := g.fill(m, beta, c.DType, c.Dim, seedBeta, betaLo, betaHi); err != nil {
		return nil, 0, nil, err
	}
	groups := (c.Rows + int64(block/tpr) - 1) / int64(block/tpr)
	grid, err := g.residentGrid(fn, block, groups)
	if err != nil {
		return nil, 0, nil, err
	}
	l := &launch{fn: fn, grid: [3]uint32{grid, 1, 1}, block: [3]uint32{uint32(block), 1, 1},
		params: newParams(uint64(x), uint64(gamma), uint64(beta), uint64(y), uint64(c.Rows), uint64(c.Dim), uint64(tpr), f32bits(normEps))}
	gw := inputRow(seedGamma, c.DType, 0, c.Dim, gammaLo, gammaHi)
	bw := inputRow(seedBeta, c.DType, 0, c.Dim, betaLo, betaHi)
	ref := func(row int64) []float64 {
		xr := inputRow(seedRowX, c.DType, row, c.Dim, xLo, xHi)
		switch c.Op {
		case "layernorm":
			return layerNormRef(xr, gw, bw, normEps)
		case "rmsnorm":
			return rmsNormRef(xr, gw, normEps)
		}
		return softmaxRef(xr)
	}
	return l, y, func() error { return g.verifyRows(y, c, ref) }, nil
}

// dropoutSetup: y = x/keep where the Philox word is below keep·2^32, else 0.
func (g *gpu) dropoutSetup(fn cu.Function, c suite.Case, bufs *buffers, x cu.DevicePtr) (*launch, cu.DevicePtr, func() error, error) {
	es := elemSize(c.DType)
	y, err := bufs.alloc(c.N * es)
	if err != nil {
		return nil, 0, nil, err
	}
	l := &launch{fn: fn, grid: [3]uint32{grid1D((c.N + 16/es - 1) / (16 / es)), 1, 1}, block: [3]uint32{256, 1, 1},
		params: newParams(uint64(x), uint64(y), uint64(c.N), dropoutSeed, uint64(dropoutThreshold(dropoutKeep)), f32bits(float32(1/dropoutKeep)))}
	ref := func(row int64) []float64 {
		out := make([]float64, c.Dim)
		for j := range out {
			i := row*c.Dim + int64(j)
			out[j] = float64(dropoutRef(roundTo(c.DType, randValue(seedRowX, i, xLo, xHi)), i, dropoutKeep))
		}
		return out
	}
	return l, y, func() error { return g.verifyRows(y, c, ref) }, nil
}

// lossSetup: MSE over all elements, or cross-entropy over rows; one launch
// writes the fp32 mean (the last block reduces the partials).
func (g *gpu) lossSetup(m *module, fn cu.Function, c suite.Case, bufs *buffers, x cu.DevicePtr) (*launch, cu.DevicePtr, func() error, error) {
	out, err := bufs.alloc(4)
	if err != nil {
		return nil, 0, nil, err
	}
	const block = 256
	var (
		grid   uint32
		second uint64 // y (mse) or the targets (cross-entropy)
		tail   []uint64
		want   func() float64
	)
	if c.Op == "mse" {
		y, err := bufs.alloc(c.N * elemSize(c.DType))
		if err != nil {
			return nil, 0, nil, err
		}
		if err := g.fill(m, y, c.DType, c.N, seedRowY, xLo, xHi); err != nil {
			return nil, 0, nil, err
		}
		if grid, err = g.residentGrid(fn, block, int64(grid1D(c.N/(16/elemSize(c.DType))))); err != nil {
			return nil, 0, nil, err
		}
		second, tail = uint64(y), []uint64{uint64(c.N)}
		want = func() float64 { return mseRef(c.DType, c.N) }
	} else {
		if c.Dim%(16/elemSize(c.DType)) != 0 {
			return nil, 0, nil, fmt.Errorf("classes %d is not a multiple of %d (16-byte rows)", c.Dim, 16/elemSize(c.DType))
		}
		t, err := g.targets(m, bufs, c.Rows, c.Dim)
		if err != nil {
			return nil, 0, nil, err
		}
		tpr, _, err := rowLayout(c.DType, min(c.Dim, 4096), 4) // streams: tpr only sizes the row group
		if err != nil {
			return nil, 0, nil, err
		}
		tpr = min(tpr, block)
		if grid, err = g.residentGrid(fn, block, (c.Rows+int64(block/tpr)-1)/int64(block/tpr)); err != nil {
			return nil, 0, nil, err
		}
		second, tail = uint64(t), []uint64{uint64(c.Rows), uint64(c.Dim), uint64(tpr)}
		want = func() float64 { return crossEntropyRef(c.DType, c.Rows, c.Dim) }
	}
	work, err := bufs.alloc(4*int64(grid) + 4) // per-block partials, then the done counter
	if err != nil {
		return nil, 0, nil, err
	}
	if err := wrap("cuMemsetD8Async", cu.MemsetD8Async(work, 0, 4*int64(grid)+4, g.stream)); err != nil {
		return nil, 0, nil, err
	}
	args := append([]uint64{uint64(x), second, uint64(out), uint64(work), uint64(work) + 4*uint64(grid)}, tail...)
	l := &launch{fn: fn, grid: [3]uint32{grid, 1, 1}, block: [3]uint32{block, 1, 1}, params: newParams(args...)}
	return l, out, func() error {
		return g.verify(out, "fp32", 1, []int64{0}, rowTolerance(c.Op, c.DType, c.Dim), func(int64) float32 { return float32(want()) })
	}, nil
}

// targets allocates and fills the class index of every row (int64, as PyTorch's).
func (g *gpu) targets(m *module, bufs *buffers, rows, classes int64) (cu.DevicePtr, error) {
	t, err := bufs.alloc(8 * rows)
	if err != nil {
		return 0, err
	}
	fn, err := m.fn("rw_fill_targets")
	if err != nil {
		return 0, err
	}
	l := &launch{fn: fn, grid: [3]uint32{uint32(min(int64(g.smCount)*32, int64(grid1D(rows)))), 1, 1}, block: [3]uint32{256, 1, 1},
		params: newParams(uint64(t), uint64(rows), seedTarget, uint64(classes))}
	defer l.params.free()
	return t, l.enqueue(g.stream, 1)
}

// verifyRows reads the sampled rows of a rows × dim output and compares
// each with ref(row), rounded to the output's dtype.
func (g *gpu) verifyRows(out cu.DevicePtr, c suite.Case, ref func(row int64) []float64) error {
	es := elemSize(c.DType)
	tol := rowTolerance(c.Op, c.DType, c.Dim)
	var first *mismatchError
	for _, r := range sampleRows(c.Rows) {
		raw, err := g.readback(out+cu.DevicePtr(r*c.Dim*es), c.Dim*es)
		if err != nil {
			return err
		}
		want := ref(r)
		got := make([]float32, c.Dim)
		exp := make([]float32, c.Dim)
		idx := make([]int64, c.Dim)
		for j := range got {
			got[j] = decodeElem(c.DType, raw, int64(j))
			exp[j] = roundTo(c.DType, float32(want[j]))
			idx[j] = r*c.Dim + int64(j)
		}
		var me *mismatchError
		if !errors.As(checkClose(got, exp, idx, tol), &me) {
			continue
		}
		switch {
		case first == nil:
			first = me
		default:
			first.Bad += me.Bad
		}
	}
	if first != nil {
		return first
	}
	return nil
}

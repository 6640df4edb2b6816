package kernels

import (
	"errors"
	"fmt"

	"github.com/perfgate/perfgate/kernels/device"
	"github.com/perfgate/perfgate/kernels/suite"
)

// prepareRowwise sets up one rowwise case, and checks its output against
// the CPU reference on sampled rows (losses: the whole mean).
func prepareRowwise(d device.GPU, c suite.Case) (*prepared, error) {
	m, err := d.Module("rowwise")
	if err != nil {
		return nil, err
	}
	entry := c.Op + "_" + c.DType
	fn, err := m.Func(entry)
	if err != nil {
		return nil, err
	}
	es := elemSize(c.DType)
	s := &setup{gpu: d}
	fail := func(err error) (*prepared, error) { s.free(); return nil, err }
	x, err := s.alloc(c.N * es)
	if err != nil {
		return fail(err)
	}
	if err := s.fill(m, x, c.DType, c.N, seedRowX, xLo, xHi); err != nil {
		return fail(err)
	}
	var (
		l     device.Launch
		out   device.Ptr
		check func() error
	)
	switch c.Op {
	case "layernorm", "rmsnorm", "softmax":
		l, out, check, err = s.rowNorm(m, fn, c, x)
	case "dropout":
		l, out, check, err = s.dropout(fn, c, x)
	case "mse", "cross_entropy":
		l, out, check, err = s.loss(m, fn, c, x)
	default:
		err = fmt.Errorf("rowwise suite has no benchmark %q", c.Op)
	}
	if err != nil {
		return fail(err)
	}
	k := d.Kernel(l)
	p := &prepared{work: k.Enqueue, ops: 1, cleanup: func() { k.Free(); s.free() },
		meta: suite.WorkMeta{Bytes: rowwiseBytes(c), PTXHash: m.Hash(entry),
			Info: map[string]string{"launch": fmt.Sprintf("grid %d × block %d", l.Grid[0], l.Block[0])}}}
	outBytes := c.N * es
	if c.Op == "mse" || c.Op == "cross_entropy" {
		outBytes = 4
	}
	if err := s.checkOnce(p, out, outBytes, check); err != nil {
		p.cleanup()
		return nil, err
	}
	return p, nil
}

// rowNorm: LayerNorm, RMSNorm or softmax over rows of dim, rows held in registers.
func (s *setup) rowNorm(m device.Module, fn device.Func, c suite.Case, x device.Ptr) (device.Launch, device.Ptr, func() error, error) {
	es := elemSize(c.DType)
	tpr, block, err := rowLayout(c.DType, c.Dim, rowVectors(c.Op, c.DType))
	if err != nil {
		return device.Launch{}, 0, nil, err
	}
	y, err := s.alloc(c.N * es)
	if err != nil {
		return device.Launch{}, 0, nil, err
	}
	gamma, err := s.alloc(c.Dim * es)
	if err != nil {
		return device.Launch{}, 0, nil, err
	}
	beta, err := s.alloc(c.Dim * es)
	if err != nil {
		return device.Launch{}, 0, nil, err
	}
	if err := s.fill(m, gamma, c.DType, c.Dim, seedGamma, gammaLo, gammaHi); err != nil {
		return device.Launch{}, 0, nil, err
	}
	if err := s.fill(m, beta, c.DType, c.Dim, seedBeta, betaLo, betaHi); err != nil {
		return device.Launch{}, 0, nil, err
	}
	groups := (c.Rows + int64(block/tpr) - 1) / int64(block/tpr)
	grid, err := s.residentGrid(fn, block, groups)
	if err != nil {
		return device.Launch{}, 0, nil, err
	}
	l := device.Launch{Func: fn, Grid: [3]uint32{grid, 1, 1}, Block: [3]uint32{uint32(block), 1, 1},
		Args: []uint64{uint64(x), uint64(gamma), uint64(beta), uint64(y), uint64(c.Rows), uint64(c.Dim), uint64(tpr), f32bits(normEps)}}
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
	return l, y, func() error { return s.verifyRows(y, c, ref) }, nil
}

// dropout: y = x/keep where the Philox word is below keep·2^32, else 0.
func (s *setup) dropout(fn device.Func, c suite.Case, x device.Ptr) (device.Launch, device.Ptr, func() error, error) {
	es := elemSize(c.DType)
	y, err := s.alloc(c.N * es)
	if err != nil {
		return device.Launch{}, 0, nil, err
	}
	l := device.Launch{Func: fn, Grid: [3]uint32{grid1D((c.N + 16/es - 1) / (16 / es)), 1, 1}, Block: [3]uint32{256, 1, 1},
		Args: []uint64{uint64(x), uint64(y), uint64(c.N), dropoutSeed, uint64(dropoutThreshold(dropoutKeep)), f32bits(float32(1 / dropoutKeep))}}
	ref := func(row int64) []float64 {
		out := make([]float64, c.Dim)
		for j := range out {
			i := row*c.Dim + int64(j)
			out[j] = float64(dropoutRef(roundTo(c.DType, randValue(seedRowX, i, xLo, xHi)), i, dropoutKeep))
		}
		return out
	}
	return l, y, func() error { return s.verifyRows(y, c, ref) }, nil
}

// loss: MSE over all elements, or cross-entropy over rows; one launch
// writes the fp32 mean (the last block reduces the partials).
func (s *setup) loss(m device.Module, fn device.Func, c suite.Case, x device.Ptr) (device.Launch, device.Ptr, func() error, error) {
	out, err := s.alloc(4)
	if err != nil {
		return device.Launch{}, 0, nil, err
	}
	const block = 256
	var (
		grid   uint32
		second uint64 // y (mse) or the targets (cross-entropy)
		tail   []uint64
		want   func() float64
	)
	if c.Op == "mse" {
		y, err := s.alloc(c.N * elemSize(c.DType))
		if err != nil {
			return device.Launch{}, 0, nil, err
		}
		if err := s.fill(m, y, c.DType, c.N, seedRowY, xLo, xHi); err != nil {
			return device.Launch{}, 0, nil, err
		}
		if grid, err = s.residentGrid(fn, block, int64(grid1D(c.N/(16/elemSize(c.DType))))); err != nil {
			return device.Launch{}, 0, nil, err
		}
		second, tail = uint64(y), []uint64{uint64(c.N)}
		want = func() float64 { return mseRef(c.DType, c.N) }
	} else {
		if c.Dim%(16/elemSize(c.DType)) != 0 {
			return device.Launch{}, 0, nil, fmt.Errorf("classes %d is not a multiple of %d (16-byte rows)", c.Dim, 16/elemSize(c.DType))
		}
		t, err := s.targets(m, c.Rows, c.Dim)
		if err != nil {
			return device.Launch{}, 0, nil, err
		}
		tpr, _, err := rowLayout(c.DType, min(c.Dim, 4096), 4) // streams: tpr only sizes the row group
		if err != nil {
			return device.Launch{}, 0, nil, err
		}
		tpr = min(tpr, block)
		if grid, err = s.residentGrid(fn, block, (c.Rows+int64(block/tpr)-1)/int64(block/tpr)); err != nil {
			return device.Launch{}, 0, nil, err
		}
		second, tail = uint64(t), []uint64{uint64(c.Rows), uint64(c.Dim), uint64(tpr)}
		want = func() float64 { return crossEntropyRef(c.DType, c.Rows, c.Dim) }
	}
	work, err := s.alloc(4*int64(grid) + 4) // per-block partials, then the done counter
	if err != nil {
		return device.Launch{}, 0, nil, err
	}
	if err := s.gpu.Memset8(work, 0, 4*int64(grid)+4); err != nil {
		return device.Launch{}, 0, nil, err
	}
	args := append([]uint64{uint64(x), second, uint64(out), uint64(work), uint64(work) + 4*uint64(grid)}, tail...)
	l := device.Launch{Func: fn, Grid: [3]uint32{grid, 1, 1}, Block: [3]uint32{block, 1, 1}, Args: args}
	return l, out, func() error {
		return s.verify(out, "fp32", 1, []int64{0}, rowTolerance(c.Op, c.DType, c.Dim), func(int64) float32 { return float32(want()) })
	}, nil
}

// targets allocates and fills the class index of every row (int64, as PyTorch's).
func (s *setup) targets(m device.Module, rows, classes int64) (device.Ptr, error) {
	t, err := s.alloc(8 * rows)
	if err != nil {
		return 0, err
	}
	fn, err := m.Func("rw_fill_targets")
	if err != nil {
		return 0, err
	}
	return t, s.launch(device.Launch{Func: fn, Grid: [3]uint32{uint32(min(int64(s.gpu.SMCount())*32, int64(grid1D(rows)))), 1, 1}, Block: [3]uint32{256, 1, 1},
		Args: []uint64{uint64(t), uint64(rows), seedTarget, uint64(classes)}})
}

// verifyRows reads the sampled rows of a rows × dim output and compares
// each with ref(row), rounded to the output's dtype.
func (s *setup) verifyRows(out device.Ptr, c suite.Case, ref func(row int64) []float64) error {
	es := elemSize(c.DType)
	tol := rowTolerance(c.Op, c.DType, c.Dim)
	var first *mismatchError
	for _, r := range sampleRows(c.Rows) {
		raw, err := s.readback(out+device.Ptr(r*c.Dim*es), c.Dim*es)
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

//go:build cuda

package kernels

import (
	"encoding/binary"
	"fmt"

	"gorgonia.org/cu"

	"github.com/perfgate/perfgate/kernels/device"
	"github.com/perfgate/perfgate/kernels/suite"
)

// prepareMicrobatch sets up 10,000 fp32 adds of n elements, each on its own
// slices of three large buffers, in one of the three launch strategies.
func prepareMicrobatch(d device.GPU, c suite.Case) (*prepared, error) {
	g := onGPU(d)
	m, err := g.loadBuiltin("microbatch")
	if err != nil {
		return nil, err
	}
	count, total := int64(microbatchOps), int64(microbatchOps)*c.N
	var bufs buffers
	var base [3]cu.DevicePtr
	for i := range base {
		if base[i], err = bufs.alloc(total * 4); err != nil {
			bufs.free()
			return nil, err
		}
	}
	ptrs := [3][]cu.DevicePtr{}
	for k := range base {
		for i := int64(0); i < count; i++ {
			ptrs[k] = append(ptrs[k], base[k]+cu.DevicePtr(i*c.N*4))
		}
	}
	table := newOpTable(ptrs[0], ptrs[1], ptrs[2], c.N)
	cleanups := []func(){table.free, bufs.free}
	p := &prepared{ops: microbatchOps, meta: suite.WorkMeta{Bytes: 12 * float64(c.N), PTXHash: m.Hash(microbatchEntry(c.Op))},
		cleanup: func() {
			for i := len(cleanups) - 1; i >= 0; i-- {
				cleanups[i]()
			}
		}}
	if err := g.microbatchWork(m, c, p, table, base, &cleanups); err != nil {
		p.cleanup()
		return nil, err
	}
	for k, seed := range []uint32{seedA, seedB} {
		if err := g.fill(m, base[k], "fp32", total, seed, -2, 2); err != nil {
			p.cleanup()
			return nil, err
		}
	}
	want := func(i int64) float32 { return cpuOp("add", randValue(seedA, i, -2, 2), randValue(seedB, i, -2, 2)) }
	if err := g.checkOnce(p, base[2], total*4, func() error {
		return g.verify(base[2], "fp32", total, opIndices(count, c.N), toleranceFor("fp32"), want)
	}); err != nil {
		p.cleanup()
		return nil, err
	}
	return p, nil
}

// microbatchWork sets p.work for the case's strategy.
func (g *gpu) microbatchWork(m *module, c suite.Case, p *prepared, t *opTable, base [3]cu.DevicePtr, cleanups *[]func()) error {
	add, err := m.fn("add_small")
	if err != nil {
		return err
	}
	grid := grid1D(c.N)
	switch c.Op {
	case "launch_per_op":
		p.work = g.on(func(s cu.Stream, n int) error {
			for range n {
				if err := t.launchOps(add, grid, 256, s); err != nil {
					return err
				}
			}
			return nil
		})
		p.launches, p.stream = t.count, true
		p.chunks = g.chunked(t.count, 1, func(s cu.Stream, from, count int) error {
			return t.launchRange(add, grid, 256, s, from, count)
		})
	case "cuda_graph":
		gr, err := t.captureOps(add, grid, 256, g.stream)
		if err != nil {
			return err
		}
		*cleanups = append(*cleanups, gr.destroy)
		p.work, p.stream = g.on(gr.enqueue), true
	case "persistent":
		return g.persistentWork(m, c, p, base, cleanups)
	default:
		return fmt.Errorf("microbatch suite has no benchmark %q", c.Op)
	}
	return nil
}

// persistentWork uploads the descriptor table (a, b, out, n per op) and
// launches one kernel whose blocks walk it: 8 blocks of 256 threads per SM.
func (g *gpu) persistentWork(m *module, c suite.Case, p *prepared, base [3]cu.DevicePtr, cleanups *[]func()) error {
	fn, err := m.fn("add_persistent")
	if err != nil {
		return err
	}
	desc := make([]byte, microbatchOps*32)
	for i := 0; i < microbatchOps; i++ {
		off := int64(i) * c.N * 4
		for k := range 3 {
			binary.LittleEndian.PutUint64(desc[32*i+8*k:], uint64(base[k])+uint64(off))
		}
		binary.LittleEndian.PutUint64(desc[32*i+24:], uint64(c.N))
	}
	d, err := cu.MemAlloc(int64(len(desc)))
	if err != nil {
		return wrap("cuMemAlloc descriptor table", err)
	}
	*cleanups = append(*cleanups, func() { cu.MemFree(d) })
	if err := g.upload(d, desc); err != nil {
		return err
	}
	l := &launch{fn: fn, grid: [3]uint32{uint32(8 * g.smCount), 1, 1}, block: [3]uint32{256, 1, 1},
		params: newParams(uint64(d), microbatchOps)}
	*cleanups = append(*cleanups, l.params.free)
	p.work = g.on(l.enqueue)
	return nil
}

// prepareMixed sets up 1000 iterations of x = div(sigmoid(relu(mul(add(x, a), b))), c)
// on n elements, as five kernels per iteration or one fused kernel.
func prepareMixed(d device.GPU, c suite.Case) (*prepared, error) {
	g := onGPU(d)
	m, err := g.loadBuiltin("mixedops")
	if err != nil {
		return nil, err
	}
	var bufs buffers
	var b [8]cu.DevicePtr // x0, p, q, t1, t2, a, b, c
	for i := range b {
		if b[i], err = bufs.alloc(c.N * 4); err != nil {
			bufs.free()
			return nil, err
		}
	}
	x0, pp, qq, t1, t2, a, bb, cc := b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]
	var seq *sequence
	p := &prepared{ops: mixedIters, meta: suite.WorkMeta{PTXHash: m.Hash(mixedEntries(c.Op)...)}, cleanup: func() {
		if seq != nil {
			seq.free()
		}
		bufs.free()
	}}
	if seq, err = g.mixedSequence(m, c, pp, qq, t1, t2, a, bb, cc); err != nil {
		p.cleanup()
		return nil, err
	}
	p.work = g.on(func(s cu.Stream, n int) error { return seq.enqueue(s, n*mixedIters/2) })
	p.launches = seq.n * mixedIters / 2
	for _, f := range []struct {
		p      cu.DevicePtr
		seed   uint32
		lo, hi float32
	}{{x0, seedX, -2, 2}, {a, seedA, -2, 2}, {bb, seedB, -2, 2}, {cc, seedC, 0.5, 2}} {
		if err := g.fill(m, f.p, "fp32", c.N, f.seed, f.lo, f.hi); err != nil {
			p.cleanup()
			return nil, err
		}
	}
	if err := wrap("cuMemcpyDtoDAsync", cu.MemcpyDtoDAsync(pp, x0, c.N*4, g.stream)); err != nil {
		p.cleanup()
		return nil, err
	}
	if err := g.checkOnce(p, qq, c.N*4, func() error {
		return g.verify(pp, "fp32", c.N, sampleIndices(c.N, 4096), tolerance{Abs: 1e-5, Rel: 1e-4}, mixedReference)
	}); err != nil {
		p.cleanup()
		return nil, err
	}
	return p, nil
}

// mixedSequence builds two iterations (p→q, then q→p) of the case's variant.
func (g *gpu) mixedSequence(m *module, c suite.Case, p, q, t1, t2, a, b, cc cu.DevicePtr) (*sequence, error) {
	mk := func(name string, args ...cu.DevicePtr) (*launch, error) {
		fn, err := m.fn(name)
		if err != nil {
			return nil, err
		}
		vals := make([]uint64, 0, len(args)+1)
		for _, x := range args {
			vals = append(vals, uint64(x))
		}
		vals = append(vals, uint64(c.N))
		return &launch{fn: fn, grid: [3]uint32{grid1D(c.N), 1, 1}, block: [3]uint32{256, 1, 1}, params: newParams(vals...)}, nil
	}
	var specs [][]any
	for _, io := range [][2]cu.DevicePtr{{p, q}, {q, p}} {
		in, out := io[0], io[1]
		switch c.Op {
		case "unfused":
			specs = append(specs, []any{"mx_add", in, a, t1}, []any{"mx_mul", t1, b, t2}, []any{"mx_relu", t2, t1},
				[]any{"mx_sigmoid", t1, t2}, []any{"mx_div", t2, cc, out})
		case "fused":
			specs = append(specs, []any{"mx_fused", in, a, b, cc, out})
		default:
			return nil, fmt.Errorf("mixedops suite has no benchmark %q", c.Op)
		}
	}
	var ls []*launch
	for _, s := range specs {
		args := make([]cu.DevicePtr, 0, len(s)-1)
		for _, x := range s[1:] {
			args = append(args, x.(cu.DevicePtr))
		}
		l, err := mk(s[0].(string), args...)
		if err != nil {
			for _, l := range ls {
				l.params.free()
			}
			return nil, err
		}
		ls = append(ls, l)
	}
	return newSequence(ls), nil
}

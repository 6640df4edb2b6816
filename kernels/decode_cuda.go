//go:build cuda

package kernels

/*
#cgo LDFLAGS: -lcuda
#include <cuda.h>

// pg_decode_steps launches f(q, k, v, o, t, l, sl) for t = from … to-1,
// reps times: one launch per decode step.
static CUresult pg_decode_steps(CUfunction f, unsigned grid, unsigned block, unsigned shared, CUstream s,
		CUdeviceptr q, CUdeviceptr k, CUdeviceptr v, CUdeviceptr o, int l, float sl, int from, int to, int reps) {
	for (int r = 0; r < reps; r++) {
		for (int t = from; t < to; t++) {
			void* p[7] = {&q, &k, &v, &o, &t, &l, &sl};
			CUresult e = cuLaunchKernel(f, grid, 1, 1, block, 1, 1, shared, s, p, NULL);
			if (e != CUDA_SUCCESS) return e;
		}
	}
	return CUDA_SUCCESS;
}

*/
import "C"

import (
	"fmt"
	"math"

	"gorgonia.org/cu"

	"github.com/perfgate/perfgate/kernels/device"
	"github.com/perfgate/perfgate/kernels/suite"
)

// decodeArgs are the device arguments every decode kernel takes.
type decodeArgs struct {
	q, k, v, o cu.DevicePtr
	l          int
	scaleLog2  float32
}

// decodeKernel plans strategy op at cache length l (planDecode, with the
// shared memory the device lets a block of the planned kernel use) and
// returns the kernel's entry point, allowed its dynamic shared memory.
func (g *gpu) decodeKernel(m *module, op, dtype string, l int) (decodePlan, string, cu.Function, error) {
	optin, err := g.dev.Attribute(cu.DeviceAttribute(C.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN))
	if err != nil {
		return decodePlan{}, "", cu.Function{}, wrap("cuDeviceGetAttribute max shared memory per block (opt-in)", err)
	}
	// Every decode kernel has the same static shared memory (none of its own).
	probe, err := m.fn(fmt.Sprintf("decode_step_w4_%s_d%d", dtype, decodeD))
	if err != nil {
		return decodePlan{}, "", cu.Function{}, err
	}
	static, err := probe.Attribute(cu.SharedSizeBytes)
	if err != nil {
		return decodePlan{}, "", cu.Function{}, wrap("cuFuncGetAttribute shared size", err)
	}
	pl := planDecode(op, l, optin-static)
	entry := fmt.Sprintf("decode_%s_w%d_%s_d%d", pl.Kind, pl.Warps, dtype, decodeD)
	fn, err := m.fn(entry)
	if err == nil && pl.Shared > 48<<10 {
		err = allowShared(fn, entry, pl.Shared)
	}
	return pl, entry, fn, err
}

// prepareDecode sets up L decode steps for B·H sequences in one of the three
// launch strategies and checks every step of sampled sequences against the
// fp64 CPU reference.
func prepareDecode(d device.GPU, c suite.Case) (*prepared, error) {
	g := onGPU(d)
	sh := decodeCase(c)
	if sh.D != decodeD || sh.L%16 != 0 || sh.L > 4096 {
		return nil, fmt.Errorf("decode kernels need d = %d and L a multiple of 16 up to 4096, not %+v", decodeD, sh)
	}
	m, err := g.loadBuiltin("decode")
	if err != nil {
		return nil, err
	}
	pl, entry, fn, err := g.decodeKernel(m, c.Op, c.DType, sh.L)
	if err != nil {
		return nil, err
	}
	var bufs buffers
	bytes := sh.elems() * elemSize(c.DType)
	var a decodeArgs
	for _, p := range []*cu.DevicePtr{&a.q, &a.k, &a.v, &a.o} {
		if *p, err = bufs.alloc(bytes); err != nil {
			bufs.free()
			return nil, err
		}
	}
	a.l, a.scaleLog2 = sh.L, float32(math.Log2E/math.Sqrt(float64(sh.D)))
	for _, f := range []struct {
		p    cu.DevicePtr
		seed uint32
	}{{a.q, seedQ}, {a.k, seedK}, {a.v, seedV}} {
		if err := g.fill(m, f.p, c.DType, sh.elems(), f.seed, attnLo, attnHi); err != nil {
			bufs.free()
			return nil, err
		}
	}
	p := &prepared{ops: sh.L, cleanup: bufs.free, meta: suite.WorkMeta{PTXHash: m.Hash(entry),
		PerSecond: map[string]float64{"tokens_per_s": float64(sh.B)},
		Metrics:   map[string]float64{"warps_per_sequence": float64(pl.Warps)},
		Info:      map[string]string{"kernels": entry}}}
	if c.Op == "persistent" {
		p.meta.Metrics["kv_positions_in_shared"] = float64(pl.Staged)
		p.meta.Metrics["kv_positions_in_registers"] = float64(pl.InReg)
	}
	if err := g.decodeWork(fn, c.Op, uint32(sh.seqs()), pl, a, p); err != nil {
		p.cleanup()
		return nil, err
	}
	if err := g.checkOnce(p, a.o, bytes, func() error { return nil }); err != nil {
		p.cleanup()
		return nil, err
	}
	got, err := g.readback(a.o, bytes)
	if err != nil {
		p.cleanup()
		return nil, err
	}
	e := checkDecode(got, c.DType, sh, decodeTolerance(c.DType))
	e.metrics(p.meta.Metrics, "cpu")
	if err := e.err(); err != nil {
		p.cleanup()
		return nil, fmt.Errorf("%s against the fp64 CPU reference (max abs error %.3g): %w", c.Op, e.MaxAbs, err)
	}
	return p, nil
}

// decodeWork sets p.work (and, for per_launch, its launches and chunks) for the strategy op.
func (g *gpu) decodeWork(fn cu.Function, op string, seqs uint32, pl decodePlan, a decodeArgs, p *prepared) error {
	threads, shared := C.uint(32*pl.Warps), C.uint(pl.Shared)
	steps := func(s cu.Stream, from, to, reps int) error {
		return check("cuLaunchKernel", C.pg_decode_steps(cFunc(fn), C.uint(seqs), threads, shared, cStream(s),
			C.CUdeviceptr(a.q), C.CUdeviceptr(a.k), C.CUdeviceptr(a.v), C.CUdeviceptr(a.o), C.int(a.l), C.float(a.scaleLog2),
			C.int(from), C.int(to), C.int(reps)))
	}
	switch op {
	case "per_launch":
		// One launch per step, timed by the GPU like every other strategy;
		// a long cache's steps are held in chunks.
		p.work = g.on(func(s cu.Stream, reps int) error { return steps(s, 0, a.l, reps) })
		p.launches, p.stream = a.l, true
		p.chunks = g.chunked(a.l, 1, func(s cu.Stream, from, count int) error { return steps(s, from, from+count, 1) })
	case "cuda_graph":
		gr, err := capture(func(s cu.Stream, _ int) error { return steps(s, 0, a.l, 1) }, 1, g.stream)
		if err != nil {
			return err
		}
		free := p.cleanup
		p.cleanup = func() { gr.destroy(); free() }
		p.work, p.stream = g.on(gr.enqueue), true
	case "persistent":
		l := &launch{fn: fn, grid: [3]uint32{seqs, 1, 1}, block: [3]uint32{uint32(32 * pl.Warps), 1, 1}, shared: uint32(pl.Shared),
			params: newParams(uint64(a.q), uint64(a.k), uint64(a.v), uint64(a.o), uint64(a.l), f32bits(a.scaleLog2), uint64(pl.Staged))}
		free := p.cleanup
		p.cleanup = func() { l.params.free(); free() }
		p.work = g.on(l.enqueue)
	default:
		return fmt.Errorf("decode suite has no benchmark %q", op)
	}
	return nil
}

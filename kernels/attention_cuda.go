//go:build cuda

package kernels

/*
#cgo LDFLAGS: -lcuda
#include <cuda.h>
*/
import "C"

import (
	"fmt"
	"math"
	"strings"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/perfgate/perfgate/kernels/suite"
)

// attnTensors are the device buffers of one attention case.
type attnTensors struct {
	q, k, v, o cu.DevicePtr
	p          cu.DevicePtr // the naive path's B·H·S·S scores (0 when unused)
}

// prepareAttention sets up one attention case (naive or tiled), checks its
// output against the fp64 CPU reference on sampled heads and rows and, for
// the tiled kernel at S ≥ 1024, against the naive path on every element.
func prepareAttention(g *gpu, c suite.Case) (*prepared, error) {
	sh, causal := attnCase(c)
	if sh.S < 128 || sh.S > 4096 || sh.S&(sh.S-1) != 0 || (sh.D != 64 && sh.D != 128) || sh.kvHeads() < 1 || sh.H%sh.kvHeads() != 0 {
		return nil, fmt.Errorf("attention kernels need S a power of two from 128 to 4096, d of 64 or 128 and K/V heads dividing the heads, not %+v", sh)
	}
	m, err := g.loadBuiltin("attention")
	if err != nil {
		return nil, err
	}
	var bufs buffers
	fail := func(err error) (*prepared, error) { bufs.free(); return nil, err }
	es := elemSize(c.DType)
	var t attnTensors
	for _, b := range []struct {
		p *cu.DevicePtr
		n int64
	}{{&t.q, sh.elems()}, {&t.k, sh.kvElems()}, {&t.v, sh.kvElems()}, {&t.o, sh.elems()}} {
		if *b.p, err = bufs.alloc(b.n * es); err != nil {
			return fail(err)
		}
	}
	naiveNeeded := c.Op == "naive" || sh.S >= 1024
	if naiveNeeded {
		if t.p, err = bufs.alloc(sh.heads() * int64(sh.S) * int64(sh.S) * elemSize(c.DType)); err != nil {
			return fail(err)
		}
	}
	for _, f := range []struct {
		p    cu.DevicePtr
		seed uint32
		n    int64
	}{{t.q, seedQ, sh.elems()}, {t.k, seedK, sh.kvElems()}, {t.v, seedV, sh.kvElems()}} {
		if err := g.fill(m, f.p, c.DType, f.n, f.seed, attnLo, attnHi); err != nil {
			return fail(err)
		}
	}
	var ls []*launch
	p := &prepared{ops: 1, cleanup: func() {
		for _, l := range ls {
			l.params.free()
		}
		bufs.free()
	}}
	var naive []*launch
	var entries []string
	if naiveNeeded {
		if naive, entries, err = naiveLaunches(m, c.DType, sh, causal, t); err != nil {
			p.cleanup()
			return nil, err
		}
		ls = append(ls, naive...)
	}
	timed := naive
	if c.Op == "tiled" {
		fl, name, err := g.flashLaunch(m, c.DType, sh, causal, t)
		if err != nil {
			p.cleanup()
			return nil, err
		}
		ls = append(ls, fl)
		timed, entries = []*launch{fl}, []string{name}
	}
	p.work, p.launches = g.on(launchesWork(timed)), len(timed)
	p.meta = suite.WorkMeta{Bytes: sh.bytes(c.DType), FLOPs: sh.flops(causal), PTXHash: m.Hash(entries...),
		PerSecond: map[string]float64{"queries_per_s": float64(sh.heads()) * float64(sh.S)},
		Metrics:   map[string]float64{}, Info: map[string]string{"kernels": fmt.Sprint(entries)}}
	if err := g.checkAttention(p, c, sh, causal, t, naive); err != nil {
		p.cleanup()
		return nil, err
	}
	if c.Op == "naive" {
		if err := g.timeKernels(naive, entries, p.meta.Metrics); err != nil {
			p.cleanup()
			return nil, err
		}
	}
	return p, nil
}

// checkAttention runs the timed work once on a poisoned output and checks it
// (see prepareAttention), recording the errors in p.meta.Metrics.
func (g *gpu) checkAttention(p *prepared, c suite.Case, sh attnShape, causal bool, t attnTensors, naive []*launch) error {
	bytes := sh.elems() * elemSize(c.DType)
	tol := attnTolerance(c.Op, c.DType)
	if err := g.checkOnce(p, t.o, bytes, func() error { return nil }); err != nil {
		return err
	}
	got, err := g.readback(t.o, bytes)
	if err != nil {
		return err
	}
	e := checkAttention(got, c.DType, sh, causal, tol)
	e.metrics(p.meta.Metrics, "cpu")
	if err := e.err(); err != nil {
		return fmt.Errorf("%s against the fp64 CPU reference (max abs error %.3g): %w", c.Op, e.MaxAbs, err)
	}
	if c.Op != "tiled" || sh.S < 1024 {
		return nil
	}
	// The naive path writes into its own poisoned output: the tiled result in
	// t.o is kept, and t.p's scores are the naive path's.
	ref := t
	if ref.o, err = cu.MemAlloc(bytes); err != nil {
		return wrap("cuMemAlloc naive output", err)
	}
	defer cu.MemFree(ref.o)
	setArg(naive[2], 2, uint64(ref.o))
	defer setArg(naive[2], 2, uint64(t.o))
	if err := g.poison(ref.o, bytes); err != nil {
		return err
	}
	if err := launchesWork(naive)(g.stream, 1); err != nil {
		return err
	}
	want, err := g.readback(ref.o, bytes)
	if err != nil {
		return err
	}
	en := compareOutputs(got, want, c.DType, sh.elems(), attnTolerance("naive", c.DType))
	en.metrics(p.meta.Metrics, "naive")
	if err := en.err(); err != nil {
		return fmt.Errorf("tiled against naive (max abs difference %.3g): %w", en.MaxAbs, err)
	}
	return nil
}

// naiveLaunches builds the three kernels of the naive path and names them.
func naiveLaunches(m *module, dtype string, sh attnShape, causal bool, t attnTensors) ([]*launch, []string, error) {
	d := fmt.Sprintf("_%s_d%d", dtype, sh.D)
	bh, s := uint32(sh.heads()), uint32(sh.S)
	scale := 1 / math.Sqrt(float64(sh.D))
	rows := sh.heads() * int64(sh.S)
	pvShared := 2 * 64 * (72 + sh.D + 8) * 2 // naive_pv's P and V tiles, double-buffered
	specs := []struct {
		name   string
		grid   [3]uint32
		shared int
		args   []uint64
	}{
		{"naive_scores" + d, [3]uint32{s / 128, s / 64, bh}, 0, []uint64{uint64(t.q), uint64(t.k), uint64(t.p), uint64(sh.S), f32bits(float32(scale)), uint64(sh.group())}},
		{softmaxEntry(dtype, sh.S, causal), [3]uint32{uint32(rows / int64(4*rowsPerWarp(sh.S))), 1, 1}, 0, []uint64{uint64(t.p), uint64(sh.S), uint64(rows)}},
		{"naive_pv" + d, [3]uint32{s / 64, bh, 1}, pvShared, []uint64{uint64(t.p), uint64(t.v), uint64(t.o), uint64(sh.S), uint64(sh.group())}},
	}
	var ls []*launch
	var names []string
	for _, sp := range specs {
		fn, err := m.fn(sp.name)
		if err == nil && sp.shared > 0 {
			err = allowShared(fn, sp.name, sp.shared)
		}
		if err != nil {
			for _, l := range ls {
				l.params.free()
			}
			return nil, nil, err
		}
		ls = append(ls, &launch{fn: fn, grid: sp.grid, block: [3]uint32{128, 1, 1}, shared: uint32(sp.shared), params: newParams(sp.args...)})
		names = append(names, sp.name)
	}
	return ls, names, nil
}

// flashLaunch builds the fused kernel's launch: grid (S/64, B·H), 128
// threads, K and V double-buffered in dynamic shared memory; for the prefill
// shapes (flash2), grid (S/128, B·H) and Q in shared memory too.
func (g *gpu) flashLaunch(m *module, dtype string, sh attnShape, causal bool, t attnTensors) (*launch, string, error) {
	kernel, rows, qtile := "flash", 64, 0
	if flash2(sh) {
		kernel, rows, qtile = "flash2", 128, 128
	}
	name := fmt.Sprintf("%s_%s_d%d", kernel, dtype, sh.D)
	if causal {
		name = fmt.Sprintf("%s_causal_%s_d%d", kernel, dtype, sh.D)
	}
	fn, err := m.fn(name)
	if err != nil {
		return nil, "", err
	}
	keys := 64
	if qtile > 0 {
		keys = flash2Keys
	}
	shared := (qtile + 4*keys) * (sh.D + 8) * 2
	if err := allowShared(fn, name, shared); err != nil {
		return nil, "", err
	}
	scaleLog2 := math.Log2E / math.Sqrt(float64(sh.D))
	return &launch{fn: fn, grid: [3]uint32{uint32(sh.S / rows), uint32(sh.heads()), 1}, block: [3]uint32{128, 1, 1},
		shared: uint32(shared), params: newParams(uint64(t.q), uint64(t.k), uint64(t.v), uint64(t.o), uint64(sh.S), f32bits(float32(scaleLog2)), uint64(sh.group()))}, name, nil
}

// flash2Keys is flash2's keys per K/V tile (ATT2_BN in cu/attention.cu).
const flash2Keys = 64

// allowShared lets fn (named name) use bytes of dynamic shared memory,
// beyond the default 48 KiB.
func allowShared(fn cu.Function, name string, bytes int) error {
	return check("cuFuncSetAttribute "+name, C.cuFuncSetAttribute(cFunc(fn),
		C.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, C.int(bytes)))
}

// timeKernels records, for the naive path, each kernel's time (µs, the mean
// of 10 launches queued behind the blocking kernel) as naive_<kernel>_us:
// where the three kernels' time goes.
func (g *gpu) timeKernels(ls []*launch, names []string, m map[string]float64) error {
	for i, l := range ls {
		d, err := g.timeReps(l.enqueue, 10, true)
		if err != nil {
			return err
		}
		kind, _, _ := strings.Cut(strings.TrimPrefix(names[i], "naive_"), "_")
		m["naive_"+kind+"_us"] = float64(d) / 1e3 / 10
	}
	return nil
}

// launchesWork enqueues ls in order, n times.
func launchesWork(ls []*launch) workFunc {
	return func(s cu.Stream, n int) error {
		for range n {
			for _, l := range ls {
				if err := l.enqueue(s, 1); err != nil {
					return err
				}
			}
		}
		return nil
	}
}

// setArg overwrites argument i of l.
func setArg(l *launch, i int, v uint64) {
	*(*uint64)(unsafe.Add(l.params.slots, 8*i)) = v
}

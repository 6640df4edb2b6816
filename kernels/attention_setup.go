package kernels

import (
	"fmt"
	"math"
	"strings"

	"github.com/perfgate/perfgate/kernels/device"
	"github.com/perfgate/perfgate/kernels/suite"
)

// attnTensors are the device buffers of one attention case.
type attnTensors struct {
	q, k, v, o device.Ptr
	p          device.Ptr // the naive path's B·H·S·S scores (0 when unused)
}

// prepareAttention sets up one attention case (naive or tiled), checks its
// output against the fp64 CPU reference on sampled heads and rows and, for
// the tiled kernel at S ≥ 1024, against the naive path on every element.
func prepareAttention(d device.GPU, c suite.Case) (*prepared, error) {
	sh, causal := attnCase(c)
	if sh.S < 128 || sh.S > 4096 || sh.S&(sh.S-1) != 0 || (sh.D != 64 && sh.D != 128) || sh.kvHeads() < 1 || sh.H%sh.kvHeads() != 0 {
		return nil, fmt.Errorf("attention kernels need S a power of two from 128 to 4096, d of 64 or 128 and K/V heads dividing the heads, not %+v", sh)
	}
	m, err := d.Module("attention")
	if err != nil {
		return nil, err
	}
	s := &setup{gpu: d}
	fail := func(err error) (*prepared, error) { s.free(); return nil, err }
	es := elemSize(c.DType)
	var t attnTensors
	for _, b := range []struct {
		p *device.Ptr
		n int64
	}{{&t.q, sh.elems()}, {&t.k, sh.kvElems()}, {&t.v, sh.kvElems()}, {&t.o, sh.elems()}} {
		if *b.p, err = s.alloc(b.n * es); err != nil {
			return fail(err)
		}
	}
	naiveNeeded := c.Op == "naive" || sh.S >= 1024
	if naiveNeeded {
		if t.p, err = s.alloc(sh.heads() * int64(sh.S) * int64(sh.S) * elemSize(c.DType)); err != nil {
			return fail(err)
		}
	}
	for _, f := range []struct {
		p    device.Ptr
		seed uint32
		n    int64
	}{{t.q, seedQ, sh.elems()}, {t.k, seedK, sh.kvElems()}, {t.v, seedV, sh.kvElems()}} {
		if err := s.fill(m, f.p, c.DType, f.n, f.seed, attnLo, attnHi); err != nil {
			return fail(err)
		}
	}
	var ks []device.Kernel
	p := &prepared{ops: 1, cleanup: func() {
		for _, k := range ks {
			k.Free()
		}
		s.free()
	}}
	var naive []device.Kernel
	var entries []string
	if naiveNeeded {
		if naive, entries, err = naiveLaunches(d, m, c.DType, sh, causal, t); err != nil {
			p.cleanup()
			return nil, err
		}
		ks = append(ks, naive...)
	}
	timed := naive
	if c.Op == "tiled" {
		fl, name, err := flashLaunch(d, m, c.DType, sh, causal, t)
		if err != nil {
			p.cleanup()
			return nil, err
		}
		ks = append(ks, fl)
		timed, entries = []device.Kernel{fl}, []string{name}
	}
	p.work, p.launches = kernelsWork(timed), len(timed)
	p.meta = suite.WorkMeta{Bytes: sh.bytes(c.DType), FLOPs: sh.flops(causal), PTXHash: m.Hash(entries...),
		PerSecond: map[string]float64{"queries_per_s": float64(sh.heads()) * float64(sh.S)},
		Metrics:   map[string]float64{}, Info: map[string]string{"kernels": fmt.Sprint(entries)}}
	if err := s.checkAttention(p, c, sh, causal, t, naive); err != nil {
		p.cleanup()
		return nil, err
	}
	if c.Op == "naive" {
		if err := timeKernels(d, naive, entries, p.meta.Metrics); err != nil {
			p.cleanup()
			return nil, err
		}
	}
	return p, nil
}

// checkAttention runs the timed work once on a poisoned output and checks it
// (see prepareAttention), recording the errors in p.meta.Metrics.
func (s *setup) checkAttention(p *prepared, c suite.Case, sh attnShape, causal bool, t attnTensors, naive []device.Kernel) error {
	bytes := sh.elems() * elemSize(c.DType)
	tol := attnTolerance(c.Op, c.DType)
	if err := s.checkOnce(p, t.o, bytes, func() error { return nil }); err != nil {
		return err
	}
	got, err := s.readback(t.o, bytes)
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
	// t.o is kept, and t.p's scores are the naive path's. The output is freed
	// before the setup returns, out of the benchmark's measured memory.
	ref := t
	if ref.o, err = s.gpu.Alloc(bytes); err != nil {
		return fmt.Errorf("naive output: %w", err)
	}
	defer s.gpu.Free(ref.o)
	naive[2].SetArg(2, uint64(ref.o))
	defer naive[2].SetArg(2, uint64(t.o))
	if err := s.poison(ref.o, bytes); err != nil {
		return err
	}
	if err := kernelsWork(naive)(1); err != nil {
		return err
	}
	want, err := s.readback(ref.o, bytes)
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

// naiveLaunches makes the three kernels of the naive path and names them.
func naiveLaunches(d device.GPU, m device.Module, dtype string, sh attnShape, causal bool, t attnTensors) ([]device.Kernel, []string, error) {
	suffix := fmt.Sprintf("_%s_d%d", dtype, sh.D)
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
		{"naive_scores" + suffix, [3]uint32{s / 128, s / 64, bh}, 0, []uint64{uint64(t.q), uint64(t.k), uint64(t.p), uint64(sh.S), f32bits(float32(scale)), uint64(sh.group())}},
		{softmaxEntry(dtype, sh.S, causal), [3]uint32{uint32(rows / int64(4*rowsPerWarp(sh.S))), 1, 1}, 0, []uint64{uint64(t.p), uint64(sh.S), uint64(rows)}},
		{"naive_pv" + suffix, [3]uint32{s / 64, bh, 1}, pvShared, []uint64{uint64(t.p), uint64(t.v), uint64(t.o), uint64(sh.S), uint64(sh.group())}},
	}
	var ks []device.Kernel
	var names []string
	for _, sp := range specs {
		fn, err := m.Func(sp.name)
		if err == nil && sp.shared > 0 {
			err = fn.AllowShared(sp.shared)
		}
		if err != nil {
			for _, k := range ks {
				k.Free()
			}
			return nil, nil, err
		}
		ks = append(ks, d.Kernel(device.Launch{Func: fn, Grid: sp.grid, Block: [3]uint32{128, 1, 1}, Shared: uint32(sp.shared), Args: sp.args}))
		names = append(names, sp.name)
	}
	return ks, names, nil
}

// flashLaunch makes the fused kernel's launch: grid (S/64, B·H), 128
// threads, K and V double-buffered in dynamic shared memory; for the prefill
// shapes (flash2), grid (S/128, B·H) and Q in shared memory too.
func flashLaunch(d device.GPU, m device.Module, dtype string, sh attnShape, causal bool, t attnTensors) (device.Kernel, string, error) {
	kernel, rows, qtile := "flash", 64, 0
	if flash2(sh) {
		kernel, rows, qtile = "flash2", 128, 128
	}
	name := fmt.Sprintf("%s_%s_d%d", kernel, dtype, sh.D)
	if causal {
		name = fmt.Sprintf("%s_causal_%s_d%d", kernel, dtype, sh.D)
	}
	fn, err := m.Func(name)
	if err != nil {
		return nil, "", err
	}
	keys := 64
	if qtile > 0 {
		keys = flash2Keys
	}
	shared := (qtile + 4*keys) * (sh.D + 8) * 2
	if err := fn.AllowShared(shared); err != nil {
		return nil, "", err
	}
	scaleLog2 := math.Log2E / math.Sqrt(float64(sh.D))
	return d.Kernel(device.Launch{Func: fn, Grid: [3]uint32{uint32(sh.S / rows), uint32(sh.heads()), 1}, Block: [3]uint32{128, 1, 1},
		Shared: uint32(shared), Args: []uint64{uint64(t.q), uint64(t.k), uint64(t.v), uint64(t.o), uint64(sh.S), f32bits(float32(scaleLog2)), uint64(sh.group())}}), name, nil
}

// flash2Keys is flash2's keys per K/V tile (ATT2_BN in cu/attention.cu).
const flash2Keys = 64

// timeKernels records, for the naive path, each kernel's time (µs, the mean
// of 10 launches queued behind the blocking kernel) as naive_<kernel>_us:
// where the three kernels' time goes.
func timeKernels(d device.Device, ks []device.Kernel, names []string, m map[string]float64) error {
	for i, k := range ks {
		t, err := d.Time(k.Enqueue, 10, true)
		if err != nil {
			return err
		}
		kind, _, _ := strings.Cut(strings.TrimPrefix(names[i], "naive_"), "_")
		m["naive_"+kind+"_us"] = float64(t) / 1e3 / 10
	}
	return nil
}

// kernelsWork enqueues ks in order, n times.
func kernelsWork(ks []device.Kernel) device.Work {
	return func(n int) error {
		for range n {
			for _, k := range ks {
				if err := k.Enqueue(1); err != nil {
					return err
				}
			}
		}
		return nil
	}
}

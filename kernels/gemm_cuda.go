//go:build cuda

package kernels

/*
#include <cuda.h>

static CUresult pg_set_dynamic_smem(CUfunction f, int bytes) {
	return cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes);
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

// Seeds of the GEMM operands.
const (
	seedGemmA = 0x8008
	seedGemmB = 0x9009
)

// prepareGemm sets up C = A·B for one shape, dtype and implementation, and
// checks sampled entries of C against a CPU fp64 dot product.
func prepareGemm(d device.GPU, c suite.Case) (*prepared, error) {
	g := onGPU(d)
	m, err := g.loadBuiltin("gemm")
	if err != nil {
		return nil, err
	}
	es := elemSize(c.DType)
	var bufs buffers
	fail := func(err error) (*prepared, error) { bufs.free(); return nil, err }
	var ptr [3]cu.DevicePtr
	for i, n := range []int64{c.Rows * c.K, c.K * c.Dim, c.Rows * c.Dim} {
		if ptr[i], err = bufs.alloc(n * es); err != nil {
			return fail(err)
		}
	}
	if err := g.fill(m, ptr[0], c.DType, c.Rows*c.K, seedGemmA, -1, 1); err != nil {
		return fail(err)
	}
	if err := g.fill(m, ptr[1], c.DType, c.K*c.Dim, seedGemmB, -1, 1); err != nil {
		return fail(err)
	}
	tf32 := gemmTF32(c)
	p := &prepared{ops: 1, cleanup: bufs.free,
		meta: suite.WorkMeta{FLOPs: gemmFLOPs(c), Info: map[string]string{}}}
	if err := g.gemmPeak(c, tf32, &p.meta); err != nil {
		return fail(err)
	}
	switch c.Op {
	case "cublas":
		if g.blas == nil {
			if g.blas, err = openCublas(g.stream); err != nil {
				return fail(err)
			}
		}
		blas := g.blas
		p.work = func(n int) error {
			return blas.gemm(c.Rows, c.Dim, c.K, ptr[0], ptr[1], ptr[2], c.DType, tf32, n)
		}
		p.meta.Info["cublas"] = blas.describe() + ": cublasGemmEx, CUBLAS_DEFAULT_MATH, fp32 accumulation"
	case "tiled":
		l, entry, err := g.tiledGemm(m, c, ptr)
		if err != nil {
			return fail(err)
		}
		p.work, p.cleanup = g.on(l.enqueue), func() { l.params.free(); bufs.free() }
		p.meta.PTXHash = m.Hash(entry)
		p.meta.Info["kernel"] = entry
	default:
		return fail(fmt.Errorf("gemm suite has no implementation %q", c.Op))
	}
	if err := g.checkOnce(p, ptr[2], c.Rows*c.Dim*es, func() error { return g.verifyGemm(ptr[2], c, tf32) }); err != nil {
		p.cleanup()
		return nil, err
	}
	return p, nil
}

// tiledGemm configures perfgate's own kernel for c.
func (g *gpu) tiledGemm(m *module, c suite.Case, ptr [3]cu.DevicePtr) (*launch, string, error) {
	if c.Rows%128 != 0 || c.Dim%128 != 0 || c.K%32 != 0 {
		return nil, "", fmt.Errorf("the tiled kernel needs M and N multiples of 128 and K of 32, got %s", gemmShape{c.Rows, c.Dim, c.K}.label())
	}
	entry, bn, bk := "gemm_tiled_"+c.DType, int64(128), int64(32)
	if c.DType != "fp32" {
		entry, bn, bk = gemmTile(c, g.smCount)
	}
	fn, err := m.fn(entry)
	if err != nil {
		return nil, "", err
	}
	var shared uint32
	if c.DType != "fp32" {
		shared = uint32(gemmMMASmem(bn, bk))
		if err := check("cuFuncSetAttribute (dynamic shared memory)", C.pg_set_dynamic_smem(C.CUfunction(cFunc(fn)), C.int(shared))); err != nil {
			return nil, "", err
		}
	}
	tiles := (c.Rows / 128) * (c.Dim / bn)
	return &launch{fn: fn, grid: [3]uint32{uint32(tiles), 1, 1}, block: [3]uint32{256, 1, 1}, shared: shared,
		params: newParams(uint64(ptr[0]), uint64(ptr[1]), uint64(ptr[2]), uint64(c.Rows), uint64(c.Dim), uint64(c.K))}, entry, nil
}

// gemmPeak records the dense peak of c's dtype on this GPU: SMs × the
// device's maximum SM clock × FLOPs per SM per clock.
func (g *gpu) gemmPeak(c suite.Case, tf32 bool, w *suite.WorkMeta) error {
	perClock := denseFLOPsPerClock(g.cc, c.DType, tf32)
	if perClock == 0 {
		w.Info["peak"] = "unknown for compute capability " + g.cc
		return nil
	}
	khz, err := g.dev.Attribute(cu.ClockRate)
	if err != nil {
		return wrap("cuDeviceGetAttribute clock rate", err)
	}
	w.PeakFLOPS = float64(g.smCount) * float64(khz) * 1e3 * perClock
	w.Info["peak"] = fmt.Sprintf("%.1f TFLOP/s = %d SMs × %d MHz × %.0f FLOP/clock/SM", w.PeakFLOPS/1e12, g.smCount, khz/1000, perClock)
	return nil
}

// verifyGemm compares sampled entries of C with fp64 dot products of the
// rounded inputs. The bound is out·|want| + acc·Σ|a·b|: out is the output
// type's rounding, acc the accumulation (and, with TF32, input rounding).
func (g *gpu) verifyGemm(out cu.DevicePtr, c suite.Case, tf32 bool) error {
	es := elemSize(c.DType)
	outRel, acc := map[string]float64{"fp32": 1e-6, "fp16": 1e-3, "bf16": 8e-3}[c.DType], 1e-4
	if tf32 {
		acc = 2e-3
	}
	var first *mismatchError
	for ri := int64(0); ri < gemmSamples; ri++ {
		i := ri * (c.Rows - 1) / (gemmSamples - 1)
		raw, err := g.readback(out+cu.DevicePtr(i*c.Dim*es), c.Dim*es)
		if err != nil {
			return err
		}
		for ci := int64(0); ci < gemmSamples; ci++ {
			j := (ci*(c.Dim-1)/(gemmSamples-1) + ri) % c.Dim
			var want, abs float64
			for k := int64(0); k < c.K; k++ {
				p := gemmInput(seedGemmA, c.DType, i*c.K+k) * gemmInput(seedGemmB, c.DType, k*c.Dim+j)
				want += p
				abs += math.Abs(p)
			}
			got := float64(decodeElem(c.DType, raw, j))
			tol := tolerance{Abs: acc * abs, Rel: outRel}
			if math.Abs(got-want) <= tol.Abs+tol.Rel*math.Abs(want) {
				continue
			}
			if first == nil {
				first = &mismatchError{Index: i*c.Dim + j, Got: got, Want: want, Tol: tol}
			}
			first.Bad++
		}
	}
	if first != nil {
		return first
	}
	return nil
}

package kernels

import (
	"math"
	"slices"
	"strconv"

	"github.com/perfgate/perfgate/kernels/suite"
)

// A decodeShape is one decode workload: B sequences of H heads each, head
// dimension D, generating L tokens against a K/V cache of L positions.
type decodeShape struct{ B, H, D, L int }

// seqs is the number of (sequence, head) pairs: one block each.
func (s decodeShape) seqs() int64 { return int64(s.B) * int64(s.H) }

// elems is the number of elements of each of Q, K, V and O, [B·H, L, D].
func (s decodeShape) elems() int64 { return s.seqs() * int64(s.L) * int64(s.D) }

// decodeStrategies are the three ways to run the L steps: one launch per step, the
// L launches captured in one CUDA graph, one persistent kernel.
var decodeStrategies = []string{"per_launch", "cuda_graph", "persistent"}

// decodeLengths are the cache lengths by size preset: 128–512, where launch
// overhead dominates, and 4K as a larger case.
var decodeLengths = map[string][]int{
	SizeCI:     {128},
	SizeSmall:  {128, 512},
	SizeMedium: {128, 256, 512, 4096},
	SizeLarge:  {128, 256, 512, 4096},
}

// The decode batch: 8 sequences of 8 heads of dimension 128.
const decodeB, decodeH, decodeD = 8, 8, 128

func decodeCases(size string, dtypes []string) []suite.Case {
	var cs []suite.Case
	for _, l := range decodeLengths[size] {
		sh := decodeShape{decodeB, decodeH, decodeD, l}
		for _, dt := range attnDTypes {
			if !slices.Contains(dtypes, dt) {
				continue
			}
			for _, m := range decodeStrategies {
				cs = append(cs, suite.Case{Suite: "decode", Op: m, DType: dt, N: sh.elems(),
					Params: []suite.Param{{K: "dtype", V: dt}, {K: "b", V: strconv.Itoa(sh.B)}, {K: "h", V: strconv.Itoa(sh.H)},
						{K: "d", V: strconv.Itoa(sh.D)}, {K: "l", V: strconv.Itoa(sh.L)}}})
			}
		}
	}
	return cs
}

// A decodePlan is how decode.cu runs one strategy at one L: the kernel
// (decode_<Kind>_w<Warps>), warps per sequence, dynamic shared memory, and,
// for the persistent kernels, the cache positions kept in shared memory and
// in registers.
type decodePlan struct {
	Kind          string // "step" (one launch a step), "chip" or "loop" (persistent)
	Warps         int
	Shared        int // bytes of dynamic shared memory
	Staged, InReg int // cache positions in shared memory, in registers
}

// decodeRowBytes is a K row plus a V row in shared memory: D = 128 elements
// of 2 bytes with decode.cu's padding of 8 elements each.
const decodeRowBytes = 2 * (decodeD + 8) * 2

// decodeShared is decode.cu's dm_shared_bytes: the merge slots of w warps,
// nscr scratch tiles of 16 K and 16 V rows, ls staged positions.
func decodeShared(w, nscr, ls int) int {
	return 2*w*(decodeD+2)*4 + nscr*16*decodeRowBytes + ls*decodeRowBytes
}

// planDecode picks the kernel for strategy op at cache length l, given the
// shared memory a block may use (the opt-in limit less the kernel's static
// share). One launch a step uses 4 warps a sequence up to L = 512 and 8
// beyond; the persistent kernel keeps the sequence on chip where it fits
// (4 warps up to L = 256, 8 at 512: as many 16-position tiles in shared
// memory as fit, at most one more tile a warp in registers) and otherwise
// stages what fits and reads the rest as the step kernel does. Measured on
// the H100 (decode_bench.cu, µs per step, fp16): one launch a step at L =
// 128, 256, 512 with 4 warps 4.45, 4.72, 5.98, with 8 4.53, 4.85, 6.13;
// on chip with 4 warps 1.09, 1.42, -, with 8 1.27, 1.43, 1.85.
func planDecode(op string, l, avail int) decodePlan {
	if op != "persistent" {
		w := 4
		if l > 512 {
			w = 8
		}
		return decodePlan{Kind: "step", Warps: w, Shared: decodeShared(w, w, 0)}
	}
	w := 4
	if l > 256 {
		w = 8
	}
	ls := min(l, max(avail-decodeShared(w, 0, 0), 0)/decodeRowBytes/16*16)
	if (l-ls)/16 <= w && ls >= 16*w {
		return decodePlan{Kind: "chip", Warps: w, Shared: decodeShared(w, 0, ls), Staged: ls, InReg: l - ls}
	}
	w = 8
	ls = min(l, max(avail-decodeShared(w, w, 0), 0)/decodeRowBytes/16*16)
	return decodePlan{Kind: "loop", Warps: w, Shared: decodeShared(w, w, ls), Staged: ls}
}

// decodeCase reads a decode case's shape back from its parameters.
func decodeCase(c suite.Case) decodeShape {
	return decodeShape{c.IntParam("b"), c.IntParam("h"), c.IntParam("d"), c.IntParam("l")}
}

// decodeTolerance bounds a decode step's error against the fp64 reference:
// the output is rounded once to dtype, the scores stay in fp32.
func decodeTolerance(dtype string) tolerance {
	if dtype == "fp16" {
		return tolerance{Abs: 2e-3, Rel: 1e-2}
	}
	return tolerance{Abs: 1e-2, Rel: 2e-2}
}

// checkSteps picks the steps to check: all of them up to 512, else 64
// spread steps, the first and last included.
func checkSteps(l int) []int { return spread(l, 512) }

// spread returns 0 … n-1 when n <= all, else 64 indices spread over them, 0 and n-1 included.
func spread(n, all int) []int {
	if n <= all {
		r := make([]int, n)
		for i := range r {
			r[i] = i
		}
		return r
	}
	var r []int
	for i := range 64 {
		r = append(r, i*(n-1)/63)
	}
	return r
}

// checkDecode checks the outputs o (raw, dtype) of every step of the
// sequences checkHeads picks. Step t's query is Q[t] + O[t-1] rounded to
// dtype; it is formed here from the GPU's own O[t-1], so each step is
// checked on its own and an error does not propagate along the chain.
func checkDecode(o []byte, dtype string, sh decodeShape, tol tolerance) *errStats {
	e := &errStats{}
	scale := 1 / math.Sqrt(float64(sh.D))
	out := make([]float64, sh.D)
	q := make([]float64, sh.D)
	for _, h := range checkHeads(sh.seqs()) {
		qs := headValues(dtype, seedQ, h, sh.L, sh.D)
		k := headValues(dtype, seedK, h, sh.L, sh.D)
		v := headValues(dtype, seedV, h, sh.L, sh.D)
		base := h * int64(sh.L) * int64(sh.D)
		for _, t := range checkSteps(sh.L) {
			for c := range sh.D {
				x := float32(qs[t*sh.D+c])
				if t > 0 {
					x += decodeElem(dtype, o, base+int64((t-1)*sh.D+c))
				}
				q[c] = float64(roundTo(dtype, x))
			}
			attendRow(q, k, v, t+1, sh.D, scale, out)
			for c := range sh.D {
				idx := base + int64(t*sh.D+c)
				e.add(idx, float64(decodeElem(dtype, o, idx)), out[c], tol)
			}
		}
	}
	return e
}

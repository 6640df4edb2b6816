package kernels

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/perfgate/perfgate/kernels/suite"
)

// An attnShape is one attention workload: batch, query heads, sequence
// length, head dimension and K/V heads (grouped-query attention: query head
// h of a batch attends K/V head h / (H / KVH); 0 means KVH = H). Q and O
// are [B, H, S, D], K and V [B, KVH, S, D], contiguous.
type attnShape struct{ B, H, S, D, KVH int }

// mha is a shape with as many K/V heads as query heads.
func mha(b, h, s, d int) attnShape { return attnShape{B: b, H: h, S: s, D: d} }

// heads is the number of (batch, query head) pairs.
func (s attnShape) heads() int64 { return int64(s.B) * int64(s.H) }

// kvHeads is the number of K/V heads a batch has.
func (s attnShape) kvHeads() int {
	if s.KVH == 0 {
		return s.H
	}
	return s.KVH
}

// group is how many query heads share one K/V head.
func (s attnShape) group() int { return s.H / s.kvHeads() }

// elems is the number of elements of Q or O.
func (s attnShape) elems() int64 { return s.heads() * int64(s.S) * int64(s.D) }

// kvElems is the number of elements of K or V.
func (s attnShape) kvElems() int64 { return int64(s.B) * int64(s.kvHeads()) * int64(s.S) * int64(s.D) }

// pairs is the number of (query, key) pairs attended: S² without a mask,
// S(S+1)/2 with the causal one.
func (s attnShape) pairs(causal bool) float64 {
	n := float64(s.S)
	if causal {
		return n * (n + 1) / 2
	}
	return n * n
}

// flops counts Q·Kᵀ and P·V, two multiply-adds per (query, key, dim):
// 4·B·H·S²·d, halved (S(S+1)/2 pairs) when causal.
func (s attnShape) flops(causal bool) float64 {
	return 4 * float64(s.heads()) * float64(s.D) * s.pairs(causal)
}

// bytes is what the fused kernel must move at least: Q, K, V read and O
// written once, 4·B·H·S·d elements (K and V at B·KVH·S·d each).
func (s attnShape) bytes(dtype string) float64 {
	return 2 * float64(s.elems()+s.kvElems()) * float64(elemSize(dtype))
}

// gqaPrefill is a grouped-query prefill shape as Llama-3-8B has it (32
// query heads sharing 8 K/V heads, d = 128), with the FLOPs of (8,16,2048,128).
var gqaPrefill = attnShape{B: 4, H: 32, S: 2048, D: 128, KVH: 8}

// attnShapes are the attention workloads by size preset: the launch-bound
// matrix (1,1,128,64) … (32,8,256,64), two compute-bound prefill shapes and
// a grouped-query one.
var attnShapes = map[string][]attnShape{
	SizeCI:     {mha(32, 8, 256, 64)},
	SizeSmall:  {mha(1, 1, 128, 64), mha(8, 4, 128, 64)},
	SizeMedium: {mha(1, 1, 128, 64), mha(8, 4, 128, 64), mha(32, 8, 128, 64), mha(32, 8, 256, 64), mha(8, 16, 2048, 128), mha(1, 32, 4096, 128), gqaPrefill},
	SizeLarge:  {mha(1, 1, 128, 64), mha(8, 4, 128, 64), mha(32, 8, 128, 64), mha(32, 8, 256, 64), mha(8, 16, 2048, 128), mha(1, 32, 4096, 128), gqaPrefill},
}

// attnDTypes are the element types of the attention and decode suites.
var attnDTypes = []string{"fp16", "bf16"}

// attentionOps are the two implementations: three kernels with the scores
// materialised, and the fused flash-style kernel.
var attentionOps = []string{"naive", "tiled"}

func attentionCases(size string, dtypes []string) []suite.Case {
	var cs []suite.Case
	for _, sh := range attnShapes[size] {
		for _, dt := range attnDTypes {
			if !slices.Contains(dtypes, dt) {
				continue
			}
			for _, causal := range []bool{false, true} {
				for _, op := range attentionOps {
					cs = append(cs, suite.Case{Suite: "attention", Op: op, DType: dt, N: sh.elems(),
						Params: append([]suite.Param{{K: "dtype", V: dt}}, shapeParams(sh, causal)...)})
				}
			}
		}
	}
	return cs
}

// shapeParams names a shape; hkv only for grouped-query shapes, so the
// names of the others stay what their history has.
func shapeParams(sh attnShape, causal bool) []suite.Param {
	ps := []suite.Param{{K: "b", V: strconv.Itoa(sh.B)}, {K: "h", V: strconv.Itoa(sh.H)}}
	if sh.kvHeads() != sh.H {
		ps = append(ps, suite.Param{K: "hkv", V: strconv.Itoa(sh.kvHeads())})
	}
	return append(ps, suite.Param{K: "s", V: strconv.Itoa(sh.S)}, suite.Param{K: "d", V: strconv.Itoa(sh.D)}, suite.Param{K: "causal", V: strconv.FormatBool(causal)})
}

// attnCase reads an attention case's shape and mask back from its parameters.
func attnCase(c suite.Case) (attnShape, bool) {
	return attnShape{B: c.IntParam("b"), H: c.IntParam("h"), S: c.IntParam("s"), D: c.IntParam("d"), KVH: c.IntParam("hkv")},
		c.Param("causal") == "true"
}

// Seeds of the attention inputs.
const (
	seedQ = 0x5005
	seedK = 0x6006
	seedV = 0x7007
)

// attnRange is the range the inputs are drawn from: with d = 128 the scaled
// logits have a standard deviation of about 1.3, so softmax rows are neither
// flat nor one-hot.
const attnLo, attnHi = -2, 2

// headValues replays rows [0, rows) of one head of an input stream, each of
// d elements, rounded to dtype: what the GPU holds.
func headValues(dtype string, seed uint32, head int64, rows, d int) []float64 {
	out := make([]float64, rows*d)
	base := head * int64(rows) * int64(d)
	for i := range out {
		out[i] = float64(roundTo(dtype, randValue(seed, base+int64(i), attnLo, attnHi)))
	}
	return out
}

// attendRow computes softmax(q·Kᵀ·scale)·V for one query in float64 over
// keys [0, n), into out (d elements).
func attendRow(q, k, v []float64, n, d int, scale float64, out []float64) {
	s := make([]float64, n)
	mx := math.Inf(-1)
	for j := range n {
		var dot float64
		for c := range d {
			dot += q[c] * k[j*d+c]
		}
		s[j] = dot * scale
		mx = max(mx, s[j])
	}
	var sum float64
	for j := range s {
		s[j] = math.Exp(s[j] - mx)
		sum += s[j]
	}
	clear(out)
	for j := range n {
		p := s[j] / sum
		for c := range d {
			out[c] += p * v[j*d+c]
		}
	}
}

// An errStats accumulates the differences between outputs and references.
type errStats struct {
	MaxAbs, MaxRef float64 // the largest |got − want| and |want|
	Checked        int64
	first          *mismatchError
}

// add records one element; a NaN output always counts as a mismatch.
func (e *errStats) add(idx int64, got, want float64, tol tolerance) {
	e.Checked++
	d := math.Abs(got - want)
	if math.IsNaN(d) {
		d = math.Inf(1)
	}
	e.MaxAbs = max(e.MaxAbs, d)
	e.MaxRef = max(e.MaxRef, math.Abs(want))
	if d <= tol.Abs+tol.Rel*math.Abs(want) {
		return
	}
	if e.first == nil {
		e.first = &mismatchError{Index: idx, Got: got, Want: want, Tol: tol}
	}
	e.first.Bad++
}

// rel is the normwise relative error: max |got − want| over max |want|.
func (e *errStats) rel() float64 {
	if e.MaxRef == 0 {
		return e.MaxAbs
	}
	return e.MaxAbs / e.MaxRef
}

// err is the first mismatch, or nil.
func (e *errStats) err() error {
	if e.first == nil {
		return nil
	}
	return e.first
}

// metrics writes the error statistics under prefix (e.g. "cpu" or "naive").
func (e *errStats) metrics(m map[string]float64, prefix string) {
	m["max_abs_err_vs_"+prefix] = e.MaxAbs
	m["max_rel_err_vs_"+prefix] = e.rel()
}

// attnTolerance bounds an attention output's error against the fp64
// reference. The fused kernel rounds P to the input type before P·V and the
// output once; the naive path also rounds the scores to the input type
// before the softmax (as an unfused fp16/bf16 framework sequence does),
// which at logits of a few units costs up to half an ulp of them.
func attnTolerance(op, dtype string) tolerance {
	switch {
	case op == "tiled" && dtype == "fp16":
		return tolerance{Abs: 2e-3, Rel: 1e-2}
	case op == "tiled":
		return tolerance{Abs: 1e-2, Rel: 2e-2}
	case dtype == "fp16":
		return tolerance{Abs: 1e-2, Rel: 2e-2}
	}
	return tolerance{Abs: 6e-2, Rel: 5e-2}
}

// checkRows picks the query rows of a head to check: all of them up to 256,
// else 64 spread rows, the first and last included.
func checkRows(s int) []int { return spread(s, 256) }

// checkHeads picks which (batch, head) pairs to check: all up to 8, else 8
// spread ones, the first and last included.
func checkHeads(n int64) []int64 {
	k := min(n, 8)
	heads := make([]int64, k)
	for i := range heads {
		if k > 1 {
			heads[i] = int64(i) * (n - 1) / (k - 1)
		}
	}
	return heads
}

// checkAttention compares the output o (raw, dtype) of sh against the fp64
// reference on the heads and rows checkHeads and checkRows pick.
func checkAttention(o []byte, dtype string, sh attnShape, causal bool, tol tolerance) *errStats {
	e := &errStats{}
	scale := 1 / math.Sqrt(float64(sh.D))
	out := make([]float64, sh.D)
	for _, h := range checkHeads(sh.heads()) {
		q := headValues(dtype, seedQ, h, sh.S, sh.D)
		kv := h / int64(sh.group()) // b·H + h over the group is b·KVH + h / group
		k := headValues(dtype, seedK, kv, sh.S, sh.D)
		v := headValues(dtype, seedV, kv, sh.S, sh.D)
		for _, i := range checkRows(sh.S) {
			n := sh.S
			if causal {
				n = i + 1
			}
			attendRow(q[i*sh.D:(i+1)*sh.D], k, v, n, sh.D, scale, out)
			for c := range sh.D {
				idx := (h*int64(sh.S)+int64(i))*int64(sh.D) + int64(c)
				e.add(idx, float64(decodeElem(dtype, o, idx)), out[c], tol)
			}
		}
	}
	return e
}

// compareOutputs compares every element of two raw dtype outputs.
func compareOutputs(got, want []byte, dtype string, n int64, tol tolerance) *errStats {
	e := &errStats{}
	for i := range n {
		e.add(i, float64(decodeElem(dtype, got, i)), float64(decodeElem(dtype, want, i)), tol)
	}
	return e
}

// softmaxEntry names the naive softmax kernel for rows of s: one per length.
func softmaxEntry(dtype string, s int, causal bool) string {
	name := fmt.Sprintf("naive_softmax_%s_s%d", dtype, s)
	if causal {
		name += "_causal"
	}
	return name
}

// rowsPerWarp is how many rows of s one warp of the softmax handles.
func rowsPerWarp(s int) int { return max(1, 256/s) }

// flash2 reports whether the fused kernel of shape s is flash2 (128 query
// rows a block, 32 a warp) rather than flash (64 a block, 16 a warp): the
// prefill shapes, d = 128 and S a multiple of 128 from 1024 on. The short
// sequences keep flash, whose grid of S/64 blocks fills more of the GPU.
func flash2(s attnShape) bool { return s.D == 128 && s.S >= 1024 && s.S%128 == 0 }

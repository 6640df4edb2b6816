package kernels

import (
	"math"
	"runtime"
	"sync"
)

// Seeds of the rowwise suite's inputs (any fixed values; the CPU replays them).
const (
	seedRowX   = 0x3103
	seedRowY   = 0x4104
	seedGamma  = 0x5005
	seedBeta   = 0x6006
	seedTarget = 0x7007
	// dropoutSeed is the Philox key of the dropout benchmark.
	dropoutSeed = 0x5eed_0000_0000_d0d0
	// normEps is LayerNorm's and RMSNorm's epsilon (PyTorch's layer_norm default).
	normEps = 1e-5
)

// The ranges the rowwise inputs are drawn from.
const (
	xLo, xHi         = -2, 2
	gammaLo, gammaHi = 0.5, 1.5
	betaLo, betaHi   = -0.5, 0.5
)

// inputRow returns elements [row·d, row·d+d) of the stream seed, rounded to dtype, in float64.
func inputRow(seed uint32, dtype string, row, d int64, lo, hi float32) []float64 {
	out := make([]float64, d)
	for j := range out {
		out[j] = float64(roundTo(dtype, randValue(seed, row*d+int64(j), lo, hi)))
	}
	return out
}

// layerNormRef is LayerNorm of one row in float64: biased variance, then the affine transform.
func layerNormRef(x, gamma, beta []float64, eps float64) []float64 {
	var mean, v float64
	for _, a := range x {
		mean += a
	}
	mean /= float64(len(x))
	for _, a := range x {
		v += (a - mean) * (a - mean)
	}
	rstd := 1 / math.Sqrt(v/float64(len(x))+eps)
	out := make([]float64, len(x))
	for j, a := range x {
		out[j] = (a-mean)*rstd*gamma[j] + beta[j]
	}
	return out
}

// rmsNormRef is RMSNorm of one row in float64: x / sqrt(mean(x²) + eps) · weight.
func rmsNormRef(x, w []float64, eps float64) []float64 {
	var q float64
	for _, a := range x {
		q += a * a
	}
	r := 1 / math.Sqrt(q/float64(len(x))+eps)
	out := make([]float64, len(x))
	for j, a := range x {
		out[j] = a * r * w[j]
	}
	return out
}

// softmaxRef is the softmax of one row in float64.
func softmaxRef(x []float64) []float64 {
	m := math.Inf(-1)
	for _, a := range x {
		m = math.Max(m, a)
	}
	var s float64
	out := make([]float64, len(x))
	for j, a := range x {
		out[j] = math.Exp(a - m)
		s += out[j]
	}
	for j := range out {
		out[j] /= s
	}
	return out
}

// crossEntropyRow is logsumexp(x) - x[target] in float64.
func crossEntropyRow(x []float64, target int64) float64 {
	m := math.Inf(-1)
	for _, a := range x {
		m = math.Max(m, a)
	}
	var s float64
	for _, a := range x {
		s += math.Exp(a - m)
	}
	return math.Log(s) + m - x[target]
}

// targetOf is the class index of row i (rowwise.cu's rw_fill_targets).
func targetOf(i int64, classes int64) int64 {
	return int64(fmix32(uint32(i)^seedTarget) % uint32(classes))
}

// philox4x32 is Philox4x32-10 (Salmon et al., "Parallel random numbers: as
// easy as 1, 2, 3", SC'11), the generator of cuRAND and PyTorch's dropout.
func philox4x32(ctr [4]uint32, key [2]uint32) [4]uint32 {
	c := ctr
	k0, k1 := key[0], key[1]
	for range 10 {
		p0 := uint64(0xD2511F53) * uint64(c[0])
		p1 := uint64(0xCD9E8D57) * uint64(c[2])
		c = [4]uint32{uint32(p1>>32) ^ c[1] ^ k0, uint32(p1), uint32(p0>>32) ^ c[3] ^ k1, uint32(p0)}
		k0 += 0x9E3779B9
		k1 += 0xBB67AE85
	}
	return c
}

// dropoutThreshold is keep · 2^32: a Philox word below it keeps its element.
func dropoutThreshold(keep float64) uint32 {
	return uint32(min(keep*4294967296, 4294967295))
}

// dropoutRef is element i of dropout(x) with the suite's seed: x/keep when
// kept (rounded as the GPU's fp32 multiply), else 0.
func dropoutRef(x float32, i int64, keep float64) float32 {
	q := uint64(i / 4)
	w := philox4x32([4]uint32{uint32(q), uint32(q >> 32)}, [2]uint32{uint32(dropoutSeed & 0xffffffff), uint32(dropoutSeed >> 32)})
	if w[i%4] >= dropoutThreshold(keep) {
		return 0
	}
	return x * float32(1/keep)
}

// parallelSum sums f(i) for i < n in float64 over chunks, on all CPUs; the
// chunk sums are added in order, so the result does not depend on scheduling.
func parallelSum(n int64, f func(i int64) float64) float64 {
	const chunks = 256
	part := make([]float64, chunks)
	var wg sync.WaitGroup
	next := make(chan int, chunks)
	for c := range chunks {
		next <- c
	}
	close(next)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range next {
				lo, hi := n*int64(c)/chunks, n*int64(c+1)/chunks
				var s float64
				for i := lo; i < hi; i++ {
					s += f(i)
				}
				part[c] = s
			}
		}()
	}
	wg.Wait()
	var s float64
	for _, p := range part {
		s += p
	}
	return s
}

// mseRef is mean((x - y)²) over n elements of the streams seedRowX and seedRowY, rounded to dtype.
func mseRef(dtype string, n int64) float64 {
	return parallelSum(n, func(i int64) float64 {
		d := float64(roundTo(dtype, randValue(seedRowX, i, xLo, xHi))) - float64(roundTo(dtype, randValue(seedRowY, i, xLo, xHi)))
		return d * d
	}) / float64(n)
}

// crossEntropyRef is the mean cross-entropy of rows × classes logits from the stream seedRowX.
func crossEntropyRef(dtype string, rows, classes int64) float64 {
	return parallelSum(rows, func(r int64) float64 {
		return crossEntropyRow(inputRow(seedRowX, dtype, r, classes, xLo, xHi), targetOf(r, classes))
	}) / float64(rows)
}

// sampleRows picks which rows of an output to check: all up to 64, else the
// first and last 16 and 32 spread between.
func sampleRows(rows int64) []int64 {
	if rows <= 64 {
		out := make([]int64, rows)
		for i := range out {
			out[i] = int64(i)
		}
		return out
	}
	var out []int64
	for i := int64(0); i < 16; i++ {
		out = append(out, i, rows-16+i)
	}
	for i := int64(1); i <= 32; i++ {
		out = append(out, 16+i*(rows-32)/34)
	}
	return out
}

// rowTolerance is the tolerance of a rowwise output of dtype: fp32 math
// over a row (reductions of up to thousands of terms) then rounding to dtype.
// Softmax outputs are about 1/dim, so their absolute floor scales with it.
func rowTolerance(op, dtype string, dim int64) tolerance {
	t := map[string]tolerance{
		"fp32": {Abs: 1e-5, Rel: 1e-4},
		"fp16": {Abs: 1e-3, Rel: 2e-3},
		"bf16": {Abs: 8e-3, Rel: 1.6e-2},
	}[dtype]
	switch op {
	case "softmax":
		t.Abs /= float64(dim)
	case "mse", "cross_entropy": // fp32 scalars accumulated in fp32 over up to 1G terms
		t = tolerance{Abs: 1e-6, Rel: 1e-4}
	}
	return t
}

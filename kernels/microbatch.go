package kernels

import (
	"math"
	"slices"
	"strconv"

	"github.com/perfgate/perfgate/kernels/suite"
)

// microbatchStrategies are the three ways the microbatch suite runs 10,000 adds.
var microbatchStrategies = []string{"launch_per_op", "cuda_graph", "persistent"}

// microbatchOps is how many adds one microbatch sample runs.
const microbatchOps = 10000

// mixedIters is how many add→mul→relu→sigmoid→div iterations one mixedops sample runs.
const mixedIters = 1000

var microbatchSizes = map[string][]int64{
	SizeCI:     {4 * kb},
	SizeSmall:  {256, 4 * kb},
	SizeMedium: {256, 1 * kb, 2 * kb, 4 * kb, 16 * kb},
	SizeLarge:  {256, 1 * kb, 2 * kb, 4 * kb, 16 * kb},
}

func microbatchCases(size string, dtypes []string) []suite.Case {
	if !slices.Contains(dtypes, "fp32") {
		return nil
	}
	var cs []suite.Case
	for _, n := range microbatchSizes[size] {
		for _, m := range microbatchStrategies {
			cs = append(cs, suite.Case{Suite: "microbatch", Op: m, DType: "fp32", N: n,
				Params: []suite.Param{{K: "n", V: suite.SizeLabel(n)}, {K: "ops", V: strconv.Itoa(microbatchOps)}}})
		}
	}
	return cs
}

var mixedSizes = map[string][]int64{
	SizeCI:     {64 * kb},
	SizeSmall:  {64 * kb},
	SizeMedium: {4 * kb, 64 * kb, 1 * mb},
	SizeLarge:  {4 * kb, 64 * kb, 1 * mb, 16 * mb},
}

func mixedCases(size string, dtypes []string) []suite.Case {
	if !slices.Contains(dtypes, "fp32") {
		return nil
	}
	var cs []suite.Case
	for _, n := range mixedSizes[size] {
		for _, v := range []string{"unfused", "fused"} {
			cs = append(cs, suite.Case{Suite: "mixedops", Op: v, DType: "fp32", N: n,
				Params: []suite.Param{{K: "n", V: suite.SizeLabel(n)}, {K: "iters", V: strconv.Itoa(mixedIters)}}})
		}
	}
	return cs
}

// opIndices picks the elements to check of count ops of n elements: every
// element of the first and last 16 ops and of every 97th op between.
func opIndices(count, n int64) []int64 {
	var idx []int64
	for op := int64(0); op < count; op++ {
		if op < 16 || op >= count-16 || op%97 == 0 {
			for j := int64(0); j < n; j++ {
				idx = append(idx, op*n+j)
			}
		}
	}
	return idx
}

// mixedReference replays element i's 1000 iterations on the CPU in fp32.
func mixedReference(i int64) float32 {
	x := randValue(seedX, i, -2, 2)
	a, b, c := randValue(seedA, i, -2, 2), randValue(seedB, i, -2, 2), randValue(seedC, i, 0.5, 2)
	for range mixedIters {
		t := float32(x+a) * b
		t = max(t, 0)
		s := float32(1 / (1 + math.Exp(-float64(t))))
		x = s / c
	}
	return x
}

// microbatchEntry is the kernel a microbatch strategy launches.
func microbatchEntry(op string) string {
	if op == "persistent" {
		return "add_persistent"
	}
	return "add_small"
}

// mixedEntries are the kernels a mixedops variant launches.
func mixedEntries(op string) []string {
	if op == "fused" {
		return []string{"mx_fused"}
	}
	return []string{"mx_add", "mx_mul", "mx_relu", "mx_sigmoid", "mx_div"}
}

// Seeds of the mixedops inputs.
const (
	seedX = 0x3003
	seedC = 0x4004
)

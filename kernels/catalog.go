package kernels

import (
	"slices"
	"strconv"

	"github.com/perfgate/perfgate/kernels/suite"
)

const (
	kb = 1 << 10
	mb = 1 << 20
)

// Operations of the elementwise suite; the first three take two inputs.
var elementwiseOps = []string{"add", "mul", "div", "relu", "sigmoid", "gelu", "swish"}

// microbatchStrategies are the three ways the microbatch suite runs 10,000 adds.
var microbatchStrategies = []string{"launch_per_op", "cuda_graph", "persistent"}

// microbatchOps is how many adds one microbatch sample runs.
const microbatchOps = 10000

// mixedIters is how many add→mul→relu→sigmoid→div iterations one mixedops sample runs.
const mixedIters = 1000

// memoryCases copy 1 GiB, or 128 MiB at SizeCI (still well past any L2,
// and the correctness read-back stays small in host memory).
func memoryCases(size string, _ []string) []suite.Case {
	n := int64(1 << 28)
	if size == SizeCI {
		n = 1 << 25
	}
	var cs []suite.Case
	for _, op := range []string{"memcpy_dtod", "copy_float4"} {
		cs = append(cs, suite.Case{Suite: "memory", Op: op, DType: "fp32", N: n,
			Params: []suite.Param{{K: "bytes", V: suite.SizeLabel(4 * n)}}})
	}
	return cs
}

var elementwiseSizes = map[string][]int64{
	SizeCI:     {4 * kb, 16 * mb},
	SizeSmall:  {4 * kb, 1 * mb, 16 * mb},
	SizeMedium: {256, 4 * kb, 64 * kb, 1 * mb, 16 * mb, 64 * mb},
	SizeLarge:  {256, 1 * kb, 4 * kb, 16 * kb, 64 * kb, 256 * kb, 1 * mb, 4 * mb, 16 * mb, 64 * mb, 256 * mb},
}

func elementwiseCases(size string, dtypes []string) []suite.Case {
	var cs []suite.Case
	for _, op := range elementwiseOps {
		for _, dt := range DTypes {
			if !slices.Contains(dtypes, dt) {
				continue
			}
			for _, n := range elementwiseSizes[size] {
				cs = append(cs, suite.Case{Suite: "elementwise", Op: op, DType: dt, N: n,
					Params: []suite.Param{{K: "dtype", V: dt}, {K: "n", V: suite.SizeLabel(n)}}})
			}
		}
	}
	return cs
}

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

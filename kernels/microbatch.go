package kernels

import (
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

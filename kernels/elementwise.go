package kernels

import (
	"math"
	"slices"

	"github.com/perfgate/perfgate/kernels/suite"
)

const (
	kb = 1 << 10
	mb = 1 << 20
)

// Operations of the elementwise suite; the first three take two inputs.
var elementwiseOps = []string{"add", "mul", "div", "relu", "sigmoid", "gelu", "swish"}

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

// binaryOp reports whether an elementwise op takes two inputs.
func binaryOp(op string) bool { return op == "add" || op == "mul" || op == "div" }

// inputRange is the range random inputs of op's argument arg are drawn from:
// divisors stay away from zero so the quotient is well conditioned.
func inputRange(op string, arg int) (lo, hi float32) {
	if op == "div" && arg == 1 {
		return 0.5, 2
	}
	return -2, 2
}

// cpuOp computes op in float64 and rounds to fp32, as the GPU rounds its fp32 result.
func cpuOp(op string, a, b float32) float32 {
	x, y := float64(a), float64(b)
	var r float64
	switch op {
	case "add":
		r = x + y
	case "mul":
		r = x * y
	case "div":
		r = x / y
	case "relu":
		r = math.Max(x, 0)
	case "sigmoid":
		r = 1 / (1 + math.Exp(-x))
	case "gelu": // the tanh approximation, as in PyTorch's gelu(approximate="tanh")
		r = 0.5 * x * (1 + math.Tanh(0.7978845608028654*(x+0.044715*x*x*x)))
	case "swish":
		r = x / (1 + math.Exp(-x))
	default:
		panic("kernels: unknown op " + op)
	}
	return float32(r)
}

// Seeds of the random input streams (any fixed values; the CPU replays them).
const (
	seedA = 0x1001
	seedB = 0x2002
)

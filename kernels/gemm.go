package kernels

import (
	"fmt"
	"slices"

	"github.com/perfgate/perfgate/kernels/suite"
)

// gemmImpls are the GEMM implementations: cuBLAS and perfgate's own tiled
// kernels (tensor cores through mma.sync for fp16/bf16, FFMA for fp32).
var gemmImpls = []string{"cublas", "tiled"}

// A gemmShape is M×N×K: C (M×N) = A (M×K) · B (K×N), all row-major.
type gemmShape struct{ m, n, k int64 }

func (s gemmShape) label() string { return fmt.Sprintf("%dx%dx%d", s.m, s.n, s.k) }

var gemmShapes = map[string][]gemmShape{
	SizeSmall:  {{1024, 1024, 1024}, {4096, 4096, 4096}},
	SizeMedium: {{1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 4096, 4096}, {4096, 11008, 4096}},
	SizeLarge:  {{1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 4096, 4096}, {8192, 8192, 8192}, {4096, 11008, 4096}, {4096, 4096, 11008}},
}

// A gemmVariant is an element type with, for fp32, whether cuBLAS may use TF32 tensor cores.
type gemmVariant struct {
	dtype string
	tf32  bool
}

var gemmVariants = []gemmVariant{{"fp32", false}, {"fp32", true}, {"fp16", false}, {"bf16", false}}

func gemmCases(size string, dtypes []string) []suite.Case {
	var cs []suite.Case
	for _, impl := range gemmImpls {
		for _, v := range gemmVariants {
			if !slices.Contains(dtypes, v.dtype) || (impl == "tiled" && v.tf32) {
				continue
			}
			for _, s := range gemmShapes[size] {
				ps := []suite.Param{{K: "dtype", V: v.dtype}}
				if v.dtype == "fp32" {
					ps = append(ps, suite.Param{K: "tf32", V: map[bool]string{false: "off", true: "on"}[v.tf32]})
				}
				ps = append(ps, suite.Param{K: "shape", V: s.label()})
				c := suite.Case{Suite: "gemm", Op: impl, DType: v.dtype, N: s.m * s.n, Rows: s.m, Dim: s.n, K: s.k, Params: ps}
				if impl == "tiled" {
					c.Ref = "cublas"
				}
				cs = append(cs, c)
			}
		}
	}
	return cs
}

// gemmTF32 reports whether a gemm case lets cuBLAS use TF32.
func gemmTF32(c suite.Case) bool {
	for _, p := range c.Params {
		if p.K == "tf32" {
			return p.V == "on"
		}
	}
	return false
}

// gemmFLOPs is 2·M·N·K.
func gemmFLOPs(c suite.Case) float64 { return 2 * float64(c.Rows) * float64(c.Dim) * float64(c.K) }

// denseFLOPsPerClock is the dense FLOPs per SM per clock of compute
// capability cc for a GEMM of dtype (tensor cores for fp16/bf16/TF32, FFMA
// for fp32), from NVIDIA's architecture whitepapers (A100: 312 TF fp16 =
// 108 SMs × 1410 MHz × 2048; H100 SXM: 989 TF fp16 = 132 SMs × 1830 MHz ×
// 4096). 0: not known for that architecture.
func denseFLOPsPerClock(cc, dtype string, tf32 bool) float64 {
	perSM := map[string][3]float64{ // fp16/bf16, tf32, fp32 FFMA
		"8.0": {2048, 1024, 128},
		"9.0": {4096, 2048, 256},
	}
	v, ok := perSM[cc]
	switch {
	case !ok:
		return 0
	case dtype == "fp16" || dtype == "bf16":
		return v[0]
	case tf32:
		return v[1]
	}
	return v[2]
}

// gemmMMASmem is the dynamic shared memory of gemm_mma with 128×bn×bk
// tiles: its stages (4; 3 for bk = 64) of a 128×(bk+8) A tile and a
// bk×(bn+8) B tile of 2-byte elements. Measured on the H100: four stages of
// the 64-deep tile ran 1–4% slower than three (434.7 against 429.5 µs at
// fp16 4096³), three stages of the 128×128×32 tile 8–10% slower than four.
func gemmMMASmem(bn, bk int64) int64 {
	stages := int64(4)
	if bk == 64 {
		stages = 3
	}
	return stages * (128*(bk+8) + bk*(bn+8)) * 2
}

// gemmTile picks the tensor-core kernel for c on a GPU of sms SMs: the
// 128×256 tile where N allows it and it still makes at least half as many
// blocks as SMs (at 1024³ it makes 32 and ran at half the 128×128 tile's
// speed), with BK = 64 where K allows; else 128×128×32.
func gemmTile(c suite.Case, sms int) (entry string, bn, bk int64) {
	if c.Dim%256 == 0 && (c.Rows/128)*(c.Dim/256) >= int64(sms/2) {
		if c.K%64 == 0 {
			return "gemm_tiled256k64_" + c.DType, 256, 64
		}
		return "gemm_tiled256_" + c.DType, 256, 32
	}
	return "gemm_tiled_" + c.DType, 128, 32
}

// gemmInput is element i of operand seed, rounded to dtype: uniform in [-1, 1).
func gemmInput(seed uint32, dtype string, i int64) float64 {
	return float64(roundTo(dtype, randValue(seed, i, -1, 1)))
}

// gemmSamples is how many entries of C are checked: 16 rows × 16 columns.
const gemmSamples = 16

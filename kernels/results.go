package kernels

import (
	"strings"

	"github.com/perfgate/perfgate/kernels/measure"
	"github.com/perfgate/perfgate/kernels/suite"
	"github.com/perfgate/perfgate/tracker/model"
)

// ceilingOf returns the copy ceiling a memory-suite run measured: the best
// median GB/s among its benchmarks timed cold (0 when none succeeded).
func ceilingOf(bs []model.Benchmark) float64 {
	var best float64
	for _, b := range bs {
		if b.Error == "" && b.Info["mode"] == measure.Cold {
			best = max(best, b.Metrics["gbps"])
		}
	}
	return best
}

// finishSuite adds the metrics that relate a suite's benchmarks to each
// other: speedups over the baseline variant.
func finishSuite(name string, bs []model.Benchmark) {
	swapOp := func(to string) func(*model.Benchmark) string {
		return func(b *model.Benchmark) string {
			_, rest, _ := strings.Cut(b.Name, "/")
			return to + "/" + rest
		}
	}
	suite.AddRefSpeedups(bs)
	switch name {
	case "memory":
		if ceil := ceilingOf(bs); ceil > 0 {
			for i := range bs {
				if g, ok := bs[i].Metrics["gbps"]; ok {
					bs[i].Metrics["pct_of_copy"] = 100 * g / ceil
				}
			}
		}
	case "microbatch":
		suite.AddSpeedups(bs, swapOp("launch_per_op"), "speedup_vs_launch_per_op")
	case "mixedops":
		suite.AddSpeedups(bs, swapOp("unfused"), "speedup_vs_unfused")
	case "attention":
		suite.AddSpeedups(bs, swapOp("naive"), "speedup_vs_naive")
	case "decode":
		suite.AddSpeedups(bs, swapOp("per_launch"), "speedup_vs_per_launch")
	}
}

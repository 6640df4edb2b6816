package sharing

import (
	"slices"
	"strconv"
	"strings"

	"github.com/perfgate/perfgate/internal/childspec"
	"github.com/perfgate/perfgate/kernels/measure"
	"github.com/perfgate/perfgate/kernels/suite"
	"github.com/perfgate/perfgate/tracker/model"
)

// The arrangements of the sharing suite's worker processes, each its
// benchmarks' mode= parameter: one after another, at once, and at once under
// a private MPS daemon (MIG: on a real MIG instance, mig.go).
const (
	Sequential = "sequential"
	Concurrent = "concurrent"
	MPS        = "mps"
)

// Work is what one worker process runs: Launches back-to-back
// launches of a kernel of Blocks × Threads threads, each running Iters
// dependent FMAs, timed from the parent's go signal to the last launch's end.
type Work struct {
	Blocks, Threads, Iters, Launches int
}

// SpecVersion is the version of a worker's spec: Spec writes it, and the
// worker command reads a spec of this version only.
const SpecVersion = 1

// Spec returns w as the worker's spec (internal/childspec), which the
// worker command Options.Worker names reads as its last argument.
func (w Work) Spec() (string, error) {
	b, err := childspec.Encode(SpecVersion, w)
	return string(b), err
}

// A Result is the one line of JSON a worker writes when it is done.
type Result struct {
	ElapsedUS float64 `json:"elapsed_us"`
	Launches  int     `json:"launches"`
}

// The workloads: small kernels (4 blocks: a process leaves most SMs idle,
// which is what MPS can fill) and a GPU-filling one (1024 blocks of 256: about
// one wave on an H100) for the SM-limited partitions.
var (
	smallWork     = Work{Blocks: 4, Threads: 256, Iters: 20000, Launches: 1000}
	partitionWork = Work{Blocks: 1024, Threads: 256, Iters: 4000, Launches: 500}
)

// procs are the process counts per size preset.
var procs = map[string][]int{suite.SizeSmall: {1, 2}, suite.SizeMedium: {1, 2, 4, 8}, suite.SizeLarge: {1, 2, 4, 8}}

// smPercents are the CUDA_MPS_ACTIVE_THREAD_PERCENTAGE values: about
// 1/7 … 4/7 of the GPU, as MIG's 1g … 4g slices of an H100 are, and all of it.
var smPercents = []int{14, 28, 42, 57, 100}

// Suite is the sharing suite: the same small-kernel workload in N worker
// processes (perfgate re-executing itself) in each arrangement, and one
// GPU-filling workload under MPS with CUDA_MPS_ACTIVE_THREAD_PERCENTAGE
// limiting its SMs, the stand-in for MIG slices. It needs -tags cuda and
// Options.Worker; Run runs it.
var Suite = suite.Def{Name: "sharing",
	Desc: "GPU sharing: 1/2/4/8 worker processes of small kernels sequential vs concurrent vs MPS; " +
		"SM-limited partitions (CUDA_MPS_ACTIVE_THREAD_PERCENTAGE) as the MIG stand-in",
	Cases: cases, Modes: arrangements}

// arrangements returns the arrangements case c runs in.
func arrangements(c suite.Case) []string {
	if c.Op == "partition" {
		return []string{MPS}
	}
	return []string{Sequential, Concurrent, MPS}
}

func cases(size string, _ []string) []suite.Case {
	var cs []suite.Case
	for _, n := range procs[size] {
		cs = append(cs, suite.Case{Suite: "sharing", Op: "small_kernels", Params: []suite.Param{{K: "procs", V: strconv.Itoa(n)}}})
	}
	for _, p := range smPercents {
		cs = append(cs, suite.Case{Suite: "sharing", Op: "partition", Params: []suite.Param{{K: "sm_pct", V: strconv.Itoa(p)}}})
	}
	return cs
}

// plan returns how case c runs: processes, workload, and the extra
// environment of its workers beyond the MPS pipe (the SM limit).
func plan(c suite.Case, fast bool) (procs int, w Work, env []string) {
	w, procs = smallWork, 1
	if c.Op == "partition" {
		w = partitionWork
		if p := c.Param("sm_pct"); p != "" {
			env = []string{"CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=" + p}
		}
	} else {
		procs, _ = strconv.Atoi(c.Param("procs"))
	}
	if fast {
		w.Launches /= 5
	}
	return procs, w, env
}

// stats turns rounds of one configuration into a benchmark: samples
// are wall µs per kernel over all processes (aggregate), and the metrics are
// the aggregate throughput, each process's own time and the fairness
// (fastest over slowest process, 1 = fair). It is pure.
func stats(b *model.Benchmark, procs, launches int, walls []float64, each [][]float64) {
	b.Samples = nil
	var per, fair []float64
	for i, wall := range walls {
		b.Samples = append(b.Samples, measure.RoundSample(wall/float64(procs*launches)))
		per = append(per, each[i]...)
		if lo, hi := slices.Min(each[i]), slices.Max(each[i]); hi > 0 {
			fair = append(fair, lo/hi)
		}
	}
	med := measure.Median(b.Samples)
	b.Metrics["median_us"] = med
	if cv := measure.RelStd(b.Samples); cv == cv {
		b.Metrics["cv"] = cv
	}
	b.Metrics["kernels_per_s"] = 1e6 / med
	b.Metrics["per_process_us"] = measure.Median(per)
	b.Metrics["per_process_max_us"] = slices.Max(per)
	b.Metrics["fairness"] = measure.Median(fair)
}

// finish adds speedup_vs_sequential (same process count) and, for
// partitions, fraction_of_full (throughput over that at 100%).
func finish(bs []model.Benchmark) {
	suite.AddSpeedups(bs, func(b *model.Benchmark) string {
		if !strings.HasPrefix(b.Name, "small_kernels/") {
			return ""
		}
		return strings.TrimSuffix(b.Name, "/mode="+b.Params["mode"]) + "/mode=" + Sequential
	}, "speedup_vs_sequential")
	suite.AddSpeedups(bs, func(b *model.Benchmark) string {
		if !strings.HasPrefix(b.Name, "partition/") {
			return ""
		}
		return "partition/sm_pct=100/mode=" + MPS
	}, "fraction_of_full")
}

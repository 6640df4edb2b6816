package kernels

import (
	"slices"
	"strconv"
	"strings"

	"github.com/perfgate/perfgate/kernels/measure"
	"github.com/perfgate/perfgate/tracker/model"
)

// The sharing suite runs the same small-kernel workload in N worker
// processes (perfgate re-executing itself) one after another, at once, and
// at once under a private MPS daemon; and one GPU-filling workload under MPS
// with CUDA_MPS_ACTIVE_THREAD_PERCENTAGE limiting its SMs, the stand-in for
// MIG slices. It needs -tags cuda and Options.Worker.

// The modes of the sharing suite.
const (
	ModeSequential = "sequential"
	ModeConcurrent = "concurrent"
	ModeMPS        = "mps"
)

// SharingWork is what one worker process runs: Launches back-to-back
// launches of a kernel of Blocks × Threads threads, each running Iters
// dependent FMAs, timed from the parent's go signal to the last launch's end.
type SharingWork struct {
	Blocks, Threads, Iters, Launches int
}

// Args returns w as the worker command's flags.
func (w SharingWork) Args() []string {
	return []string{"--blocks", strconv.Itoa(w.Blocks), "--threads", strconv.Itoa(w.Threads),
		"--iters", strconv.Itoa(w.Iters), "--launches", strconv.Itoa(w.Launches)}
}

// A SharingResult is the one line of JSON a worker writes when it is done.
type SharingResult struct {
	ElapsedUS float64 `json:"elapsed_us"`
	Launches  int     `json:"launches"`
}

// The workloads: small kernels (4 blocks: a process leaves most SMs idle,
// which is what MPS can fill) and a GPU-filling one (1024 blocks of 256: about
// one wave on an H100) for the SM-limited partitions.
var (
	smallWork     = SharingWork{Blocks: 4, Threads: 256, Iters: 20000, Launches: 1000}
	partitionWork = SharingWork{Blocks: 1024, Threads: 256, Iters: 4000, Launches: 500}
)

// sharingProcs are the process counts per size preset.
var sharingProcs = map[string][]int{SizeSmall: {1, 2}, SizeMedium: {1, 2, 4, 8}, SizeLarge: {1, 2, 4, 8}}

// sharingSMPercents are the CUDA_MPS_ACTIVE_THREAD_PERCENTAGE values: about
// 1/7 … 4/7 of the GPU, as MIG's 1g … 4g slices of an H100 are, and all of it.
var sharingSMPercents = []int{14, 28, 42, 57, 100}

func init() {
	suites = append(suites, suiteDef{name: "sharing",
		desc: "GPU sharing: 1/2/4/8 worker processes of small kernels sequential vs concurrent vs MPS; " +
			"SM-limited partitions (CUDA_MPS_ACTIVE_THREAD_PERCENTAGE) as the MIG stand-in",
		cases: sharingCases})
	suiteModes["sharing"] = func(c benchCase) []string {
		if c.Op == "partition" {
			return []string{ModeMPS}
		}
		return []string{ModeSequential, ModeConcurrent, ModeMPS}
	}
}

func sharingCases(size string, _ []string) []benchCase {
	var cs []benchCase
	for _, n := range sharingProcs[size] {
		cs = append(cs, benchCase{Suite: "sharing", Op: "small_kernels", Params: []param{{"procs", strconv.Itoa(n)}}})
	}
	for _, p := range sharingSMPercents {
		cs = append(cs, benchCase{Suite: "sharing", Op: "partition", Params: []param{{"sm_pct", strconv.Itoa(p)}}})
	}
	return cs
}

// sharingPlan returns how case c runs: processes, workload, and the extra
// environment of its workers beyond the MPS pipe (the SM limit).
func sharingPlan(c benchCase, fast bool) (procs int, w SharingWork, env []string) {
	w, procs = smallWork, 1
	if c.Op == "partition" {
		w = partitionWork
		if p := c.paramOf("sm_pct"); p != "" {
			env = []string{"CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=" + p}
		}
	} else {
		procs, _ = strconv.Atoi(c.paramOf("procs"))
	}
	if fast {
		w.Launches /= 5
	}
	return procs, w, env
}

// sharingStats turns rounds of one configuration into a benchmark: samples
// are wall µs per kernel over all processes (aggregate), and the metrics are
// the aggregate throughput, each process's own time and the fairness
// (fastest over slowest process, 1 = fair). It is pure.
func sharingStats(b *model.Benchmark, procs, launches int, walls []float64, each [][]float64) {
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

// finishSharing adds speedup_vs_sequential (same process count) and, for
// partitions, fraction_of_full (throughput over that at 100%).
func finishSharing(bs []model.Benchmark) {
	addSpeedups(bs, func(b *model.Benchmark) string {
		if !strings.HasPrefix(b.Name, "small_kernels/") {
			return ""
		}
		return strings.TrimSuffix(b.Name, "/mode="+b.Params["mode"]) + "/mode=" + ModeSequential
	}, "speedup_vs_sequential")
	addSpeedups(bs, func(b *model.Benchmark) string {
		if !strings.HasPrefix(b.Name, "partition/") {
			return ""
		}
		return "partition/sm_pct=100/mode=" + ModeMPS
	}, "fraction_of_full")
}
